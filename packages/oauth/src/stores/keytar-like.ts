/** The part of a keytar binding the keyring store uses (`@github/keytar`, `keytar`, or the revoked-session-keyring helper). */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}
