/**
 * The user's home directory as the hosts see it. Windows apps use %USERPROFILE%; a HOME set there (Git
 * Bash, MSYS) may point elsewhere, so it only counts when USERPROFILE is missing. POSIX: $HOME.
 */
export function homeDirFor(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, fallback: string): string {
  if (platform === 'win32') return env.USERPROFILE || env.HOME || fallback;
  return env.HOME || fallback;
}
