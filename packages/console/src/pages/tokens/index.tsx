export function TokensPage() {
  return <h1>API tokens</h1>;
}
