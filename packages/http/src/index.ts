/** Public API of @lectern/http. */
export { createApp, type App, type AccessLogEntry, type AppOptions, type HttpLogger } from './app.ts';
export type { Refusal } from './plain.ts';
export { createNodeServer, DEFAULT_SERVER_LIMITS, listen, type Listening, type ServerLimits, type ServerOptions } from './node-server.ts';
export { createFetchHandler, type FetchHandler } from './fetch-handler.ts';
export { errorStatus, errorReply } from './error-response.ts';
export { FixedWindowRateLimiter, SharedWindowRateLimiter, type RateLimitOptions, type RateLimitState } from './middleware/rate-limit.ts';
export type { PlainRequest, PlainResponse } from './plain.ts';
export type { Reply } from './reply.ts';
export { RouteTable, type RouteContext, type RouteHandler } from './router.ts';
export { buildOpenApiDocument, type OpenApiDocument } from './openapi/document.ts';
export type { OperationSpec } from './operation-spec.ts';
export { registerRoutes } from './routes/index.ts';
export { viewerFiles, type ViewerFile, type ViewerFileSource } from './api-reference/reference-page.ts';
export { isLoopbackHost } from './console/oidc-relying-party.ts';
export { folderConsoleFiles, listedConsoleFiles, type ConsoleFileSource } from './console/console-files.ts';
