import { del, request } from './http';

export interface Session {
  key: { id: string; name: string };
  scopes: string[];
  csrf_token: string;
  expires_at: string;
}

const PATH = '/api/console/session';

/** Exchanges the key for the session cookie; the key leaves the browser only in this request. */
export const signIn = (apiKey: string) =>
  request<Session>('POST', PATH, { body: { api_key: apiKey }, signOutOn401: false });

/** The current session, or null when there is none (401). */
export async function currentSession(): Promise<Session | null> {
  try {
    return await request<Session>('GET', PATH, { signOutOn401: false });
  } catch (error) {
    if ((error as { status?: number }).status === 401) return null;
    throw error;
  }
}

export const signOut = () => del<void>(PATH);
