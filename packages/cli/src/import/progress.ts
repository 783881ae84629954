/** The live bar on stderr (rows done / total, rate, ETA), or nothing off a TTY or with --no-progress. */
import { SingleBar } from 'cli-progress';

export interface Progress {
  advance(rows: number): void;
  /** a short note beside the bar, e.g. why the run is waiting */
  note(text: string): void;
  stop(): void;
}

const silent: Progress = { advance() {}, note() {}, stop() {} };

export function createProgress(enabled: boolean, total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!enabled || !stream.isTTY) return silent;
  const started = Date.now();
  let done = 0;
  const bar = new SingleBar(
    {
      stream,
      format: '{bar} {value}/{total} rows | {rate} rows/s | ETA {eta_formatted} {note}',
      etaBuffer: 50,
      hideCursor: true,
      clearOnComplete: false,
    },
    undefined,
  );
  bar.start(total, 0, { rate: '0', note: '' });
  const rate = () => String(Math.round(done / Math.max((Date.now() - started) / 1000, 0.001)));
  return {
    advance(rows) {
      done += rows;
      bar.update(done, { rate: rate(), note: '' });
    },
    note(text) {
      bar.update(done, { rate: rate(), note: text });
    },
    stop() {
      bar.stop();
    },
  };
}
