export function ContentPage() {
  return <h1>Content</h1>;
}
