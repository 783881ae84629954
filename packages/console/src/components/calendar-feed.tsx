/**
 * "Subscribe in your calendar": makes the signed-in person's personal feed address (their
 * enrolled timeslots and due dates, readable by calendar apps without a token), shows it once with
 * a copy button, and turns the feed off. The server keeps only a hash of the address, so an
 * address lost is replaced, not shown again; making a new one stops the previous one.
 */
import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import { ActionButton, SecretOnce } from './action.tsx';

export function CalendarFeed() {
  const [url, setUrl] = useState<string | null>(null);
  const [revoked, setRevoked] = useState(false);
  return (
    <section class="detail" aria-labelledby="calendar-feed">
      <h2 id="calendar-feed">Your calendar feed</h2>
      <p>
        Calendar apps (Google Calendar, Outlook, Apple Calendar) can subscribe to an address that lists your enrolled sessions and the due
        dates of your assignments, and keeps them up to date. Anyone with the address can read it, so keep it to yourself.
      </p>
      {url ? <SecretOnce label="Your calendar address:" value={url} /> : null}
      {revoked ? <p role="status">Your calendar feed is off: the previous address no longer works.</p> : null}
      <div class="actions">
        <ActionButton
          label={url ? 'Make a new address' : 'Subscribe in your calendar'}
          confirm={url ? 'Make a new address? The one shown stops working.' : undefined}
          run={async () => {
            const feed = await unwrap(api.POST('/api/v2/me/calendar-feed'));
            setUrl(feed.url);
            setRevoked(false);
          }}
        />
        <ActionButton
          label="Turn the feed off"
          danger
          confirm="Turn your calendar feed off? Calendars subscribed to it stop updating."
          run={() => unwrap(api.DELETE('/api/v2/me/calendar-feed'))}
          done={() => {
            setUrl(null);
            setRevoked(true);
          }}
        />
      </div>
    </section>
  );
}
