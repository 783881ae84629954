export function ImportsPage() {
  return <h1>Imports</h1>;
}
