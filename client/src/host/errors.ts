// Host failures, each with the fix the user can apply (no `vscode` import).
export type HostErrorCode =
  | 'no-gateway'
  | 'protocol-mismatch'
  | 'token-required'
  | 'timeout'
  | 'wrong-project'
  | 'turn-failed'
  | 'http'
  /** The answer is not what a Vis gateway sends: HTML, invalid JSON, too large, a redirect elsewhere. */
  | 'bad-answer'
  | 'unreachable';

export class HostError extends Error {
  constructor(readonly code: HostErrorCode, message: string, readonly fix: string) {
    super(message);
  }
  /** Message and fix in one line, for a notification. */
  get text(): string {
    return `${this.message} ${this.fix}`;
  }
}
