/**
 * A bar chart drawn by uPlot (small, canvas, no dependencies), with the same numbers in a table
 * for screen readers and anyone who wants the figures.
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { labelLayout } from './chart-labels.ts';
import { cssColour, theme } from './theme.tsx';

export interface Bar {
  label: string;
  value: number;
}

/** `maxWidth`: the widest the canvas grows in a wide container (many bars want more than the default). */
export function BarChart({ title, bars, unit = '', maxWidth = 520 }: { title: string; bars: Bar[]; unit?: string; maxWidth?: number }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    // drawn with the theme's colours, and again when the theme changes
    const accent = cssColour('--accent', element);
    const ink = {
      stroke: cssColour('--fg', element),
      grid: { stroke: cssColour('--line', element) },
      ticks: { stroke: cssColour('--line', element) },
    };
    const width = Math.max(240, Math.min(element.clientWidth || 360, maxWidth));
    const layout = labelLayout(
      bars.map((bar) => bar.label),
      width,
    );
    const plot = new uPlot(
      {
        width,
        height: 170 + layout.size,
        // uPlot's default right padding, or what the last slanted label needs
        padding: [null, layout.right, null, null],
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: false, range: [-0.5, bars.length - 0.5] }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [
          {
            values: (_u, splits) =>
              splits.map((split) => ((bars.length - 1 - split) % layout.every === 0 ? (bars[split]?.label ?? '') : '')),
            splits: () => bars.map((_, index) => index),
            rotate: layout.rotate,
            size: layout.size,
            ...ink,
          },
          ink,
        ],
        series: [
          {},
          { label: title, fill: accent, stroke: accent, paths: uPlot.paths.bars?.({ size: [0.6, 64] }), points: { show: false } },
        ],
      },
      [bars.map((_, index) => index), bars.map((bar) => bar.value)],
      element,
    );
    return () => plot.destroy();
  }, [JSON.stringify(bars), theme.value, maxWidth]);
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <div ref={host} aria-hidden="true" />
      <table class="visually-hidden">
        <caption>{title}</caption>
        <tbody>
          {bars.map((bar) => (
            <tr key={bar.label}>
              <th scope="row">{bar.label}</th>
              <td>
                {bar.value}
                {unit}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
