/**
 * About: which Lectern this is and, for admins, how it is set up (database, instance, and which
 * optional features are on), so a person reporting a problem or wondering why no email arrives
 * finds the answer without reading the server's settings.
 */
import type { ComponentChildren } from 'preact';
import { api, unwrap } from '../../api/client.ts';
import type { GetResult } from '../../api/types.ts';
import { ErrorBanner } from '../../components/error-banner.tsx';
import { useLoad } from '../../components/use-load.ts';

type Configuration = NonNullable<GetResult<'/api/v2/about'>['configuration']>;

const DATABASES: Record<Configuration['database'], string> = {
  sqlite: 'SQLite (one server, one file)',
  postgres: 'PostgreSQL (several servers may share it)',
  other: "The embedding application's own storage",
};

export function AboutPage() {
  const loaded = useLoad(() => unwrap(api.GET('/api/v2/about')), 'about');
  const about = loaded.data;
  return (
    <>
      <h1>About</h1>
      {loaded.error ? <ErrorBanner error={loaded.error} onRetry={loaded.reload} /> : null}
      <section aria-labelledby="about-version" aria-busy={loaded.loading ? true : undefined}>
        <h2 id="about-version">This server</h2>
        {about ? (
          <dl class="facts">
            <Fact term="Lectern version">{about.version}</Fact>
            <Fact term="Node.js version">{about.node_version}</Fact>
            {about.configuration ? (
              <>
                <Fact term="Database">{DATABASES[about.configuration.database]}</Fact>
                <Fact term="Instance id">
                  <code>{about.configuration.instance_id}</code>
                </Fact>
                <Fact term="Public address">
                  <code>{about.configuration.public_url}</code>
                </Fact>
              </>
            ) : null}
          </dl>
        ) : null}
        {about && !about.configuration ? <p>Only admins see how this server is configured.</p> : null}
      </section>
      {about?.configuration ? <Features configuration={about.configuration} /> : null}
    </>
  );
}

function Features({ configuration }: { configuration: Configuration }) {
  const { webhooks, email, single_sign_on: sso, scim } = configuration;
  return (
    <section aria-labelledby="about-features">
      <h2 id="about-features">Optional features</h2>
      <dl class="facts">
        <Fact term="Webhooks">
          <State on={webhooks.enabled} />{' '}
          {webhooks.enabled ? 'Events are delivered to the endpoints on the Webhooks page.' : 'This server sends no webhook deliveries.'}
        </Fact>
        <Fact term="Email notifications">
          <State on={email.configured} />{' '}
          {email.configured
            ? `Sent from ${email.from ?? ''}; reminders ${email.reminder_days ?? 0} days before a due date.`
            : 'No SMTP server is set (smtp_url), so no notification is queued or sent.'}
        </Fact>
        <Fact term="Single sign-on">
          <State on={sso !== null} />{' '}
          {sso
            ? `"Sign in with ${sso.name}" through ${sso.issuer}${sso.creates_users ? '; unknown people become new users' : ''}.`
            : 'The console signs in with API tokens and sign-in links only (oidc_issuer is not set).'}
        </Fact>
        <Fact term="SCIM provisioning">
          Identity providers provision users and groups at <code>{scim.base_url}</code> with a token carrying <code>scim:write</code>.
        </Fact>
      </dl>
    </section>
  );
}

function Fact({ term, children }: { term: string; children: ComponentChildren }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function State({ on }: { on: boolean }) {
  return <span class={on ? 'badge ok' : 'badge'}>{on ? 'on' : 'off'}</span>;
}
