/**
 * Calls that arrive while earlier ones are on their way to the database wait and then go
 * together, as one statement. Where each statement is a round trip over a socket (PostgreSQL),
 * the round trip costs Lectern more CPU than the rows it brings back: under load, many requests'
 * lookups of the same kind are in flight at once, and one statement for all of them costs little
 * more than one of them alone. An idle server sends every call at once, alone; a busy one sends
 * batches that grow with how many calls came while the last ones were out, so no call waits for
 * more than the statements already on their way.
 */
export interface CoalescerOptions<Input, Output> {
  /** runs one call alone */
  one: (input: Input) => Promise<Output>;
  /** runs several calls as one statement; answers in the order of `inputs`, one output each */
  many: (inputs: Input[]) => Promise<Output[]>;
  /** statements of this kind on their way at once before calls wait (at least 1) */
  inFlight: number;
  /** calls one statement carries at most */
  most: number;
}

interface Waiting<Input, Output> {
  input: Input;
  resolve: (output: Output) => void;
  reject: (error: unknown) => void;
}

export function coalescer<Input, Output>(options: CoalescerOptions<Input, Output>): (input: Input) => Promise<Output> {
  const { one, many, inFlight, most } = options;
  let out = 0;
  let waiting: Waiting<Input, Output>[] = [];

  const settled = () => {
    out--;
    if (waiting.length > 0) send();
  };

  const send = () => {
    const batch = waiting.length <= most ? waiting : waiting.slice(0, most);
    waiting = batch === waiting ? [] : waiting.slice(most);
    out++;
    if (batch.length === 1) {
      const [call] = batch as [Waiting<Input, Output>];
      one(call.input).then(call.resolve, call.reject).finally(settled);
      return;
    }
    many(batch.map((call) => call.input))
      .then(
        (outputs) => batch.forEach((call, i) => call.resolve(outputs[i]!)),
        // one call's bad value fails the statement for all: each runs alone, to fail alone
        () => batch.forEach((call) => one(call.input).then(call.resolve, call.reject)),
      )
      .finally(settled);
  };

  return (input) => {
    if (out < inFlight && waiting.length === 0) {
      out++;
      return one(input).finally(settled);
    }
    return new Promise<Output>((resolve, reject) => {
      waiting.push({ input, resolve, reject });
    });
  };
}
