/** The console's screens and the scopes each needs (src/platform/auth/scopes.ts; `admin` implies all). */
export type ScreenId = 'agents' | 'talk' | 'routing' | 'tasks' | 'keys' | 'health';

export interface ScreenInfo {
  id: ScreenId;
  title: string;
  /** Any one of these scopes opens the screen. */
  anyOf: string[];
}

export const SCREENS: ScreenInfo[] = [
  { id: 'agents', title: 'Agents', anyOf: ['agents:read'] },
  { id: 'talk', title: 'Talk', anyOf: ['messages'] },
  { id: 'routing', title: 'Routing log', anyOf: ['internal'] },
  { id: 'tasks', title: 'Task trees', anyOf: ['tasks'] },
  { id: 'keys', title: 'Keys', anyOf: ['admin'] },
  { id: 'health', title: 'Health', anyOf: ['internal'] },
];

export function hasScope(scopes: readonly string[], scope: string): boolean {
  return scopes.includes('admin') || scopes.includes(scope);
}

export function allowedScreens(scopes: readonly string[]): ScreenInfo[] {
  return SCREENS.filter((screen) => screen.anyOf.some((scope) => hasScope(scopes, scope)));
}

export function screenFromHash(hash: string): ScreenId | null {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/)[0];
  return SCREENS.some((s) => s.id === id) ? (id as ScreenId) : null;
}
