// A software WebAuthn authenticator for tests (issue 15): it makes real registration ("none"
// attestation) and authentication responses, as a browser would send them in JSON, with an ES256
// key pair from node:crypto. Nothing here is for production.
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";

// ── a small CBOR encoder (RFC 8949): what attestation objects and COSE keys need, no more
type Cbor = number | string | Uint8Array | Map<Cbor, Cbor> | { [key: string]: Cbor };

function head(major: number, value: number): Buffer {
  if (value < 24) return Buffer.from([(major << 5) | value]);
  if (value < 0x100) return Buffer.from([(major << 5) | 24, value]);
  if (value < 0x10000) {
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(value, 1);
    return b;
  }
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(value, 1);
  return b;
}

export function cborEncode(value: Cbor): Buffer {
  if (typeof value === "number") {
    if (!Number.isInteger(value)) throw new Error("cbor: integers only");
    return value >= 0 ? head(0, value) : head(1, -1 - value);
  }
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  const entries: Array<[Cbor, Cbor]> = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cborEncode(k), cborEncode(v)])]);
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export type SoftwareCredential = {
  id: Buffer;
  privateKey: KeyObject;
  /** COSE_Key of the public key (EC2, ES256, P-256). */
  cosePublicKey: Buffer;
  userHandle: Buffer;
  counter: number;
};

export type RegistrationJSON = {
  id: string;
  rawId: string;
  type: "public-key";
  response: { clientDataJSON: string; attestationObject: string; transports: string[] };
  clientExtensionResults: Record<string, never>;
  authenticatorAttachment: "platform";
};

export type AuthenticationJSON = {
  id: string;
  rawId: string;
  type: "public-key";
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle: string };
  clientExtensionResults: Record<string, never>;
  authenticatorAttachment: "platform";
};

type Options = { rpId?: string; origin?: string };

export class SoftwareAuthenticator {
  readonly rpId: string;
  readonly origin: string;
  readonly credentials: SoftwareCredential[] = [];

  constructor(options: Options = {}) {
    this.rpId = options.rpId ?? "localhost";
    this.origin = options.origin ?? "http://localhost:3000";
  }

  private authData(flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter >>> 0, 0);
    return Buffer.concat([sha256(this.rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  private clientData(type: "webauthn.create" | "webauthn.get", challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), "utf8");
  }

  /** navigator.credentials.create(): a new ES256 passkey for the options' user and challenge. */
  register(
    options: { challenge: string; user: { id: string } },
    overrides: { origin?: string } = {},
  ): RegistrationJSON {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const cosePublicKey = cborEncode(
      new Map<Cbor, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x ?? "", "base64url")],
        [-3, Buffer.from(jwk.y ?? "", "base64url")],
      ]),
    );
    const id = randomBytes(16);
    const length = Buffer.alloc(2);
    length.writeUInt16BE(id.length, 0);
    const attested = Buffer.concat([Buffer.alloc(16), length, id, cosePublicKey]);
    const credential: SoftwareCredential = {
      id,
      privateKey,
      cosePublicKey,
      userHandle: Buffer.from(options.user.id, "base64url"),
      counter: 0,
    };
    this.credentials.push(credential);
    const authData = this.authData(FLAG_UP | FLAG_UV | FLAG_AT, credential.counter, attested);
    const attestationObject = cborEncode({ fmt: "none", attStmt: {}, authData });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: "public-key",
      response: {
        clientDataJSON: b64url(this.clientData("webauthn.create", options.challenge, overrides.origin ?? this.origin)),
        attestationObject: b64url(attestationObject),
        transports: ["internal", "hybrid"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /**
   * navigator.credentials.get(): an assertion by one of the passkeys (the latest by default). The
   * counter moves on by one unless given; `tamper` spoils the signature.
   */
  authenticate(
    options: { challenge: string },
    overrides: { credential?: SoftwareCredential; counter?: number; tamper?: boolean; origin?: string } = {},
  ): AuthenticationJSON {
    const credential = overrides.credential ?? this.credentials[this.credentials.length - 1];
    if (!credential) throw new Error("no passkey on this authenticator");
    credential.counter = overrides.counter ?? credential.counter + 1;
    const authData = this.authData(FLAG_UP | FLAG_UV, credential.counter);
    const clientData = this.clientData("webauthn.get", options.challenge, overrides.origin ?? this.origin);
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientData)]), credential.privateKey);
    if (overrides.tamper) signature.writeUInt8(signature.readUInt8(signature.length - 1) ^ 0x01, signature.length - 1);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: b64url(credential.userHandle),
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }
}
