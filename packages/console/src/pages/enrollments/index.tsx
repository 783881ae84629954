export function EnrollmentsPage() {
  return <h1>Enrollments</h1>;
}
