/**
 * How the console's tests start Debian's Chromium (playwright-core, no browser download): one
 * browser for the whole run, started by scripts/run-tests.mjs and named in LECTERN_TEST_BROWSER_WS,
 * which each test file connects to; or, run without the runner, one of the file's own. Each test
 * still gets its own context (cookies, storage, viewport), so sharing the browser shares no state.
 */
import { chromium, type Browser, type BrowserServer, type LaunchOptions } from 'playwright-core';

export const CHROMIUM = process.env.LECTERN_CHROMIUM ?? '/usr/bin/chromium';

const launchOptions: LaunchOptions = {
  executablePath: CHROMIUM,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};

export const launchChromium = (): Promise<Browser> => chromium.launch(launchOptions);

/** The run's browser, for test files to connect to (scripts/run-tests.mjs). */
export const launchChromiumServer = (): Promise<BrowserServer> => chromium.launchServer(launchOptions);

/** The run's browser when there is one, else a browser of this process's own. */
export const openChromium = (): Promise<Browser> => {
  const shared = process.env.LECTERN_TEST_BROWSER_WS;
  return shared ? chromium.connect(shared) : launchChromium();
};
