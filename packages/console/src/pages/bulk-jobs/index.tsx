export function BulkJobsPage() {
  return <h1>Bulk jobs</h1>;
}
