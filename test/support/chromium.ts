import { Console } from 'node:console';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`), which the browser tests drive with playwright-core. */
export const CHROMIUM = '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/**
 * `describe` for a suite that needs Chromium. Where it is missing, the suite is skipped with a
 * warning, or fails when SWITCHBOARD_BROWSER_TESTS=required (as .ci/run sets).
 */
export function describeInChromium(title: string, suite: () => void): void {
  const present = existsSync(CHROMIUM);
  if (!present && process.env.SWITCHBOARD_BROWSER_TESTS === 'required') {
    describe(title, () => {
      it('needs Chromium', () => {
        throw new Error(
          `SWITCHBOARD_BROWSER_TESTS=required but ${CHROMIUM} is missing: install it with \`apt-get install chromium\``,
        );
      });
    });
    return;
  }
  // Jest does not show the buffered console of a skipped file: warn on the process's own stderr.
  if (!present)
    new Console({ stdout: process.stdout, stderr: process.stderr }).warn(
      `Skipping "${title}": ${CHROMIUM} is missing. Install it with \`apt-get install chromium\` ` +
        '(set SWITCHBOARD_BROWSER_TESTS=required to fail instead of skipping).',
    );
  (present ? describe : describe.skip)(title, suite);
}
