export function AssignmentsPage() {
  return <h1>Assignments</h1>;
}
