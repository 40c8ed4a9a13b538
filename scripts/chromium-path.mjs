// The Chromium the e2e tests drive, in this order: CHROMIUM_PATH, the system's /usr/bin/chromium,
// then the Chromium shipped inside the @sparticuz/chromium package (a dev dependency: the binary is
// in the package's tarball, brotli-compressed, and is unpacked to the temp folder on first use;
// nothing is downloaded at install time). The package's build is headless-only and Linux x64 only;
// on a machine without the system's NSS libraries, those it carries are unpacked too and put on
// LD_LIBRARY_PATH for the browser's process.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/**
 * @param env the environment to read CHROMIUM_PATH from.
 * @param systemPath where the system's Chromium would be (a test points it elsewhere).
 * @returns {Promise<{ path: string; source: string; env: Record<string, string> } | { error: string }>}
 *   the binary, where it came from, and environment variables the browser's process needs.
 */
export async function resolveChromium(env = process.env, systemPath = SYSTEM_CHROMIUM) {
  if (env.CHROMIUM_PATH) {
    return existsSync(env.CHROMIUM_PATH)
      ? { path: env.CHROMIUM_PATH, source: 'CHROMIUM_PATH', env: {} }
      : { error: `CHROMIUM_PATH is set to ${env.CHROMIUM_PATH}, which does not exist.` };
  }
  if (existsSync(systemPath)) return { path: systemPath, source: 'system', env: {} };
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return {
      error:
        `No Chromium at ${systemPath}, and the packaged one is for Linux x64 only.\n` +
        'Install Chromium or point CHROMIUM_PATH at a Chromium or Chrome binary.',
    };
  }
  return packagedChromium();
}

async function packagedChromium() {
  const require = createRequire(import.meta.url);
  let packageDir;
  try {
    // Its exports name only its entry (build/cjs/index.cjs); the package's folder is 3 levels up.
    packageDir = path.resolve(path.dirname(require.resolve('@sparticuz/chromium')), '..', '..');
  } catch {
    return { error: 'No system Chromium and @sparticuz/chromium is not installed (run npm ci).' };
  }
  const { default: chromium } = await import('@sparticuz/chromium');
  let binary;
  try {
    binary = await chromium.executablePath();
  } catch (error) {
    return { error: `Could not unpack the packaged Chromium: ${error.message}` };
  }
  const extra = {};
  if (!librariesResolve(binary)) {
    // The package's own copy of NSS (built for Amazon Linux 2023, glibc-compatible with Debian
    // and Ubuntu), unpacked next to the binary.
    const lambdafs = path.join(packageDir, 'build', 'esm', 'lambdafs.js');
    const { inflate } = await import(pathToFileURL(lambdafs).href);
    const libDir = path.join(tmpdir(), 'al2023', 'lib');
    if (!existsSync(libDir)) await inflate(path.join(packageDir, 'bin', 'al2023.tar.br'));
    extra.LD_LIBRARY_PATH = [libDir, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  }
  // Fonts for a machine with none: the package's fonts, unpacked beside the binary.
  if (!existsSync('/etc/fonts/fonts.conf')) extra.FONTCONFIG_PATH = path.join(tmpdir(), 'fonts');
  return { path: binary, source: '@sparticuz/chromium', env: extra };
}

/** Whether the dynamic linker finds every library the binary needs (ldd says "not found" else). */
function librariesResolve(binary) {
  const result = spawnSync('ldd', [binary], { encoding: 'utf8' });
  if (result.status !== 0) return false;
  return !result.stdout.includes('not found');
}
