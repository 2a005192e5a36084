import type { Scope } from './scopes';

/** The caller behind a verified API key. */
export class Principal {
  constructor(
    readonly keyId: string,
    readonly keyName: string,
    /** The identity owned data is scoped to; keys of one owner share it. */
    readonly owner: string,
    readonly scopes: readonly Scope[],
  ) {}

  get isAdmin(): boolean {
    return this.scopes.includes('admin');
  }

  has(scope: Scope): boolean {
    return this.isAdmin || this.scopes.includes(scope);
  }
}
