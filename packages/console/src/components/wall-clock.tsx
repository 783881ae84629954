/**
 * An event time as its location's wall clock (what attendees read on the invitation), with the
 * location's zone named and the true instant in the browser's zone and UTC on hover.
 */
export function WallClock({ wall, utc, zone }: { wall: string; utc: string; zone: string | undefined }) {
  const instant = new Date(utc);
  const shown = wall
    .replace('T', ' ')
    .replace(/:00(\.0+)?Z$/, '')
    .replace(/Z$/, '');
  return (
    <time
      dateTime={instant.toISOString()}
      title={`${instant.toLocaleString()} your time · ${instant
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, '')} UTC`}
    >
      {shown} {zone ?? 'UTC'}
    </time>
  );
}
