/** How a bar chart's category labels are laid out so that they never run into each other. */

/** Rough width of a label in the axis font (12 px system sans), to tell whether labels fit side by side. */
const LABEL_CHAR_PX = 7;
const Y_AXIS_PX = 50;
/** Slanted labels need about this much room between bars not to touch (a 12 px line at 45°). */
const SLANTED_SPACING_PX = 17;

/**
 * The x axis: labels level when each fits its bar's width, else slanted, with room below for them
 * and, as a slanted label runs right from its bar, room on the right for the last one (`right`,
 * the chart's right padding in px). When bars are too narrow even for slanted labels, only every
 * `every`-th bar is labelled, counted from the last (the latest week on a trend stays named); the
 * table beside the chart still names them all.
 */
export function labelLayout(labels: readonly string[], width: number): { rotate: number; size: number; right: number; every: number } {
  const longest = Math.max(0, ...labels.map((label) => label.length)) * LABEL_CHAR_PX;
  const perBar = (width - Y_AXIS_PX) / Math.max(1, labels.length);
  if (longest + 8 <= perBar) return { rotate: 0, size: 30, right: 8, every: 1 };
  // at 45° a label takes about 0.7 of its length in height and in width; half a bar is already there
  return {
    rotate: -45,
    size: Math.ceil(longest * 0.72) + 16,
    right: Math.max(8, Math.ceil(longest * 0.72 - perBar / 2) + 4),
    every: Math.ceil(SLANTED_SPACING_PX / perBar),
  };
}
