import { parseTarget } from '../request-target.ts';
import { RequestState } from '../request-state.ts';
import type { Step } from './pipeline.ts';

/** The step that parses the request's target into what a route handler sees (request-state.ts). */
export const routeContext = (): Step => async (exchange, next) => {
  const { pathname, query } = parseTarget(exchange.request.url);
  exchange.state = new RequestState(exchange.auth!, exchange.requestId, query, exchange.request);
  exchange.state.path = pathname;
  return next();
};
