/** How a bar chart's category labels are laid out so that they never run into each other. */

/** Rough width of a label in the axis font (12 px system sans), to tell whether labels fit side by side. */
const LABEL_CHAR_PX = 7;
const Y_AXIS_PX = 50;

/** The x axis: labels level when each fits its bar's width, else slanted, with room below for them. */
export function labelLayout(labels: readonly string[], width: number): { rotate: number; size: number } {
  const longest = Math.max(0, ...labels.map((label) => label.length)) * LABEL_CHAR_PX;
  const perBar = (width - Y_AXIS_PX) / Math.max(1, labels.length);
  if (longest + 8 <= perBar) return { rotate: 0, size: 30 };
  // at 45° a label takes about 0.7 of its length in height
  return { rotate: -45, size: Math.ceil(longest * 0.72) + 16 };
}
