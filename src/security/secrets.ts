// Encryption of stored connection strings: AES-256-GCM with a key from SDS_SECRET_KEY, or one
// generated once into the data folder. Plaintext never leaves this module except to open a connection.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface Sealed {
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
}

/** A sealed secret this key cannot open: sealed with another key (SDS_SECRET_KEY changed), or tampered with. */
export class SecretUnreadableError extends Error {
  constructor() {
    super('The secret cannot be opened with this key');
    this.name = 'SecretUnreadableError';
  }
}

export class SecretBox {
  private readonly key: Buffer;

  /** `secret`: any string (hashed to 256 bits). */
  constructor(secret: string) {
    this.key = createHash('sha256').update(secret, 'utf8').digest();
  }

  /** The configured key, or one generated once into `dataDir/secret-key` (mode 600). */
  static fromConfig(secretKey: string | undefined, dataDir: string): SecretBox {
    if (secretKey) return new SecretBox(secretKey);
    const file = path.join(dataDir, 'secret-key');
    if (!fs.existsSync(file)) {
      fs.mkdirSync(dataDir, { recursive: true });
      try {
        fs.writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
      } catch (error) {
        // Another process wrote it first: use theirs.
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    return new SecretBox(fs.readFileSync(file, 'utf8').trim());
  }

  seal(plaintext: string, associatedData: string): Sealed {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return { iv, tag: cipher.getAuthTag(), ciphertext };
  }

  /** Throws SecretUnreadableError when the key is wrong or the data was tampered with. */
  open(sealed: Sealed, associatedData: string): string {
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.iv);
      decipher.setAAD(Buffer.from(associatedData, 'utf8'));
      decipher.setAuthTag(sealed.tag);
      return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretUnreadableError();
    }
  }
}
