import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_WEBHOOK_URL_LENGTH, checkWebhookTarget, isPublicAddress, nonPublicAddressKind, type HostResolver } from './webhook-target.ts';

describe('isPublicAddress', () => {
  const publicAddresses = [
    '1.1.1.1',
    '8.8.8.8',
    '93.184.215.14',
    '172.15.255.255', // just below 172.16/12
    '172.32.0.1', // just above it
    '100.63.255.255', // just below 100.64/10
    '100.128.0.1', // just above it
    '11.0.0.1',
    '223.255.255.254',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::808:808', // NAT64 of 8.8.8.8
    '2002:808:808::1', // 6to4 of 8.8.8.8
  ];
  for (const ip of publicAddresses) {
    it(`${ip} is public`, () => {
      assert.equal(nonPublicAddressKind(ip), null);
      assert.equal(isPublicAddress(ip), true);
    });
  }

  const nonPublic: Array<[string, string]> = [
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'], // cloud metadata
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'], // TEST-NET-1
    ['198.18.0.1', 'reserved'], // benchmarking
    ['203.0.113.7', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['fe80::1%eth0', 'zone-scoped'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['fec0::1', 'site-local'],
    ['100::1', 'discard-only'],
    ['2001:db8::1', 'reserved'], // documentation
    ['4000::1', 'reserved'], // outside 2000::/3
    ['::ffff:127.0.0.1', 'loopback (IPv4-mapped)'],
    ['::ffff:7f00:1', 'loopback (IPv4-mapped)'],
    ['::ffff:10.0.0.1', 'private (IPv4-mapped)'],
    ['::ffff:169.254.169.254', 'link-local (IPv4-mapped)'],
    ['::ffff:0:a00:1', 'private (IPv4-translated)'],
    ['::127.0.0.1', 'reserved'], // deprecated IPv4-compatible
    ['::8.8.8.8', 'reserved'],
    ['64:ff9b::7f00:1', 'loopback (NAT64)'],
    ['64:ff9b::a9fe:a9fe', 'link-local (NAT64)'],
    ['64:ff9b:1::808:808', 'reserved (local NAT64)'],
    ['2002:7f00:1::', 'loopback (6to4)'],
    ['2002:c0a8:101::1', 'private (6to4)'],
    // Teredo: server 65.54.227.120, client 10.0.0.1 stored inverted as f5ff:fffe.
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'private (Teredo)'],
    ['2001:0:a00:1:8000:63bf:3fff:fdd2', 'private (Teredo)'], // private server
    // Odd IPv4 spellings are read as a URL would read them.
    ['2130706433', 'loopback'],
    ['0x7f.1', 'loopback'],
    ['0x7f000001', 'loopback'],
    ['127.1', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['0', 'unspecified'],
    ['[::1]', 'loopback'],
    ['not-an-ip', 'invalid'],
    ['', 'invalid'],
    ['1.2.3.4.5', 'invalid'],
    ['256.0.0.1', 'invalid'],
    ['12345::1::2', 'invalid'],
  ];
  for (const [ip, kind] of nonPublic) {
    it(`${ip || '(empty)'} is ${kind}`, () => {
      assert.equal(nonPublicAddressKind(ip), kind);
      assert.equal(isPublicAddress(ip), false);
    });
  }

  it('017.0.0.1 is octal, hence 15.0.0.1 and public, as a URL reads it', () => {
    assert.equal(isPublicAddress('017.0.0.1'), true);
  });

  it('Teredo with public server and client is public', () => {
    // client 8.8.8.8 inverted: f7f7:f7f7
    assert.equal(isPublicAddress('2001:0:4136:e378:8000:63bf:f7f7:f7f7'), true);
  });
});

/** A resolver over a fixed table that records what it was asked. */
function fakeResolver(table: Record<string, readonly string[]>): HostResolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses;
  };
  return Object.assign(resolve, { asked });
}

const dns = fakeResolver({
  'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'internal.example.com': ['10.1.2.3'],
  'mixed.example.com': ['93.184.215.14', '192.168.0.10'],
  'rebind.example.com': ['::ffff:127.0.0.1'],
  'metadata.example.com': ['169.254.169.254'],
  'empty.example.com': [],
  'xn--e1afmkfd.xn--p1ai': ['93.184.215.14'],
  intranet: ['172.20.0.5'],
});

describe('checkWebhookTarget (production policy)', () => {
  const accepted = [
    'https://hooks.example.com/lectern',
    'https://hooks.example.com:8443/path?x=1#frag',
    'https://HOOKS.example.com/',
    'https://hooks.example.com./', // trailing dot is the same host; the resolver sees it as given
    'https://1.1.1.1/hook',
    'https://[2606:4700:4700::1111]/hook',
    'https://пример.рф/hook',
  ];
  for (const url of accepted) {
    it(`accepts ${url}`, async () => {
      const resolve = fakeResolver({
        'hooks.example.com': ['93.184.215.14'],
        'hooks.example.com.': ['93.184.215.14'],
        'xn--e1afmkfd.xn--p1ai': ['1.1.1.1'],
      });
      assert.equal(await checkWebhookTarget(url, { resolve }), null);
    });
  }

  const rejected: Array<[string, RegExp]> = [
    ['http://hooks.example.com/', /must use https:\/\//],
    ['ftp://hooks.example.com/', /must use https:\/\//],
    ['javascript:alert(1)', /must use https:\/\//],
    ['not a url', /not a valid absolute URL/],
    ['/relative/path', /not a valid absolute URL/],
    ['https://', /not a valid absolute URL/],
    ['https://user:pass@hooks.example.com/', /username or password/],
    ['https://user@hooks.example.com/', /username or password/],
    ['https://:secret@hooks.example.com/', /username or password/],
    [`https://hooks.example.com/${'a'.repeat(MAX_WEBHOOK_URL_LENGTH)}`, /at most 2048 characters/],
    ['https://127.0.0.1/', /Host 127\.0\.0\.1 is a non-public address \(loopback\)/],
    ['https://127.0.0.1./', /loopback/],
    ['https://10.0.0.1/', /private/],
    ['https://172.16.5.4/', /private/],
    ['https://192.168.0.1:8443/', /private/],
    ['https://169.254.169.254/latest/meta-data/', /link-local/],
    ['https://100.64.0.1/', /carrier-grade NAT/],
    ['https://0.0.0.0/', /unspecified/],
    ['https://0/', /unspecified/],
    ['https://255.255.255.255/', /broadcast/],
    ['https://224.0.0.1/', /multicast/],
    ['https://2130706433/', /Host 127\.0\.0\.1 .*loopback/],
    ['https://0x7f.1/', /loopback/],
    ['https://0x7f000001/', /loopback/],
    ['https://127.1/', /loopback/],
    ['https://0177.0.0.1/', /loopback/],
    ['https://[::1]/', /Host \[::1\] .*loopback/],
    ['https://[::]/', /unspecified/],
    ['https://[fe80::1]/', /link-local/],
    ['https://[fd00::1]/', /unique-local/],
    ['https://[ff02::1]/', /multicast/],
    ['https://[::ffff:127.0.0.1]/', /loopback \(IPv4-mapped\)/],
    ['https://[::ffff:a9fe:a9fe]/', /link-local \(IPv4-mapped\)/],
    ['https://[::127.0.0.1]/', /reserved/],
    ['https://[64:ff9b::a00:1]/', /private \(NAT64\)/],
    ['https://[2002:c0a8:101::1]/', /private \(6to4\)/],
    ['https://localhost/', /Host localhost is a local name/],
    ['https://LOCALHOST./', /local name/],
    ['https://api.localhost/', /local name/],
    ['https://a.b.localhost:3000/', /local name/],
    ['https://internal.example.com/', /Host internal\.example\.com resolves to a non-public address \(private\)/],
    ['https://mixed.example.com/', /resolves to a non-public address \(private\)/],
    ['https://rebind.example.com/', /loopback \(IPv4-mapped\)/],
    ['https://metadata.example.com/', /link-local/],
    ['https://intranet/', /private/],
    ['https://empty.example.com/', /could not be resolved/],
    ['https://nxdomain.example.com/', /Host nxdomain\.example\.com could not be resolved/],
  ];
  for (const [url, reason] of rejected) {
    it(`rejects ${url.length > 60 ? `${url.slice(0, 60)}…` : url}`, async () => {
      const result = await checkWebhookTarget(url, { resolve: dns });
      assert.ok(result !== null, 'expected a reason');
      assert.match(result, reason);
    });
  }

  it('accepts a URL of exactly the maximum length', async () => {
    const base = 'https://hooks.example.com/';
    const url = base + 'a'.repeat(MAX_WEBHOOK_URL_LENGTH - base.length);
    assert.equal(await checkWebhookTarget(url, { resolve: dns }), null);
  });

  it('never echoes a resolved address, only its kind', async () => {
    const result = await checkWebhookTarget('https://internal.example.com/', { resolve: dns });
    assert.doesNotMatch(result ?? '', /10\.1\.2\.3/);
  });

  it('does not consult DNS for IP literals, localhost names or rejected schemes', async () => {
    const resolve = fakeResolver({});
    for (const url of ['https://8.8.8.8/', 'https://[2606:4700::1]/', 'https://localhost/', 'http://hooks.example.com/']) {
      await checkWebhookTarget(url, { resolve });
    }
    assert.deepEqual(resolve.asked, []);
  });

  it('treats a resolver that throws anything as unresolvable', async () => {
    const resolve: HostResolver = async () => {
      throw 'boom';
    };
    assert.match((await checkWebhookTarget('https://hooks.example.com/', { resolve })) ?? '', /could not be resolved/);
  });
});

describe('checkWebhookTarget with allowPrivateTargets', () => {
  const options = { allowPrivateTargets: true, resolve: fakeResolver({}) };
  for (const url of [
    'http://127.0.0.1:8080/hook',
    'http://localhost:3000/',
    'https://localhost/',
    'http://[::1]/',
    'http://10.0.0.1/',
    'http://nxdomain.example.com/',
  ]) {
    it(`accepts ${url}`, async () => {
      assert.equal(await checkWebhookTarget(url, options), null);
    });
  }

  it('still requires http(s), no credentials and the length limit', async () => {
    assert.match((await checkWebhookTarget('ftp://127.0.0.1/', options)) ?? '', /http:\/\/ or https:\/\//);
    assert.match((await checkWebhookTarget('http://u:p@127.0.0.1/', options)) ?? '', /username or password/);
    assert.match((await checkWebhookTarget(`http://x/${'a'.repeat(2048)}`, options)) ?? '', /at most/);
    assert.deepEqual(options.resolve.asked, []);
  });
});
