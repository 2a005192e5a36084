export interface CardProblem {
  severity: 'error' | 'warning';
  /** Where in the card, e.g. "skills[0].tags"; "" for the card itself. */
  path: string;
  message: string;
}

export interface CardValidationReport {
  /** card.name if it is a string. */
  name: string | null;
  /** The v0.3 `url`, or the first JSONRPC (else first) `supportedInterfaces` url of a v1.0 card. */
  url: string | null;
  /** The v0.3 `protocolVersion`, or the highest `supportedInterfaces` protocolVersion of a v1.0 card. */
  protocol_version: string | null;
  /** protocol_version is a known A2A version: 0.2.x, 0.3.x or 1.0.x. */
  version_valid: boolean;
  has_skills: boolean;
  skill_count: number;
  /** capabilities.streaming === true */
  streaming: boolean;
  /** capabilities.pushNotifications === true */
  push_notifications: boolean;
  /** failed if any problem is an error; warnings if there are only warnings. */
  validation: 'passed' | 'warnings' | 'failed';
  /** Errors first, then warnings. */
  problems: CardProblem[];
}

export interface ValidateAgentCardOptions {
  /** The base URL the card was fetched from; endpoints on another host are reported as warnings. */
  baseUrl?: string;
}
