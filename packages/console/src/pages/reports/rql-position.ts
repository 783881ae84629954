/** The character position a saved report's 422 names (`Position 14: …`), if it names one. */
export function rqlErrorPosition(message: string): number | null {
  const match = /position (\d+)/i.exec(message);
  return match ? Number(match[1]) : null;
}
