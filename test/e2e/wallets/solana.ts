/**
 * A test Solana wallet for browser tests: a wallet-standard wallet registered in the page
 * (`wallet-standard:register-wallet`, and on `wallet-standard:app-ready`), with
 * standard:connect and solana:signMessage; the ed25519 key pair stays in Node
 * (@noble/curves), signatures cross through `page.exposeFunction`.
 */
import type { Page } from 'playwright-core'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'

export interface TestSolanaWalletOptions {
  /** 32-byte secret key; default: a fixed test key. */
  secretKey?: Uint8Array
  name?: string
}

export interface TestSolanaWallet {
  address: string
  publicKey: Uint8Array
  rejectSignatures(n?: number): void
  signed: string[]
}

/** A fixed test secret key (never a real one). */
export const TEST_SOL_KEY = new Uint8Array(32).map((_, i) => (i * 7 + 3) & 0xff)

const PAGE_SCRIPT = String.raw`(function (o) {
  var w = window;
  var publicKey = new Uint8Array(o.publicKey);
  var account = Object.freeze({
    address: o.address,
    publicKey: publicKey,
    chains: ['solana:mainnet'],
    features: ['solana:signMessage'],
  });
  var accounts = [];
  function b64(bytes) {
    var s = '';
    for (var i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    return btoa(s);
  }
  function unb64(s) {
    var bin = atob(s);
    var out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  var wallet = {
    version: '1.0.0',
    name: o.name,
    icon: o.icon,
    chains: ['solana:mainnet', 'solana:devnet'],
    get accounts() { return accounts.slice(); },
    features: {
      'standard:connect': {
        version: '1.0.0',
        connect: async function () {
          accounts = [account];
          return { accounts: accounts.slice() };
        },
      },
      'standard:events': { version: '1.0.0', on: function () { return function () {}; } },
      'solana:signMessage': {
        version: '1.0.0',
        signMessage: async function () {
          var out = [];
          for (var i = 0; i < arguments.length; i++) {
            var input = arguments[i];
            var reply = await w[o.binding](b64(input.message));
            if (reply.error) {
              var err = new Error(reply.error.message);
              err.code = reply.error.code;
              throw err;
            }
            out.push({ signedMessage: input.message, signature: unb64(reply.signature), signatureType: 'ed25519' });
          }
          return out;
        },
      },
    },
  };
  function callback(api) { api.register(wallet); }
  try { w.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: callback })); } catch (e) {}
  try { w.addEventListener('wallet-standard:app-ready', function (e) { callback(e.detail); }); } catch (e) {}
})`

const ICON =
  'data:image/svg+xml;base64,' +
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><rect width="32" height="32" rx="8" fill="#ab9ff2"/></svg>',
  ).toString('base64')

/** Install the wallet in `page` before its scripts run. Call before `page.goto`. */
export async function installSolanaWallet(page: Page, options: TestSolanaWalletOptions = {}): Promise<TestSolanaWallet> {
  const secretKey = options.secretKey ?? TEST_SOL_KEY
  const publicKey = ed25519.getPublicKey(secretKey)
  const address = base58.encode(publicKey)
  let reject = 0
  const signed: string[] = []
  const binding = '__porticoTestSolanaWallet'
  await page.exposeFunction(binding, async (messageB64: string) => {
    if (reject > 0) {
      reject--
      return { error: { code: 4001, message: 'User rejected the request.' } }
    }
    const message = Buffer.from(messageB64, 'base64')
    signed.push(message.toString('utf8'))
    return { signature: Buffer.from(ed25519.sign(message, secretKey)).toString('base64') }
  })
  const pageOptions = { binding, name: options.name ?? 'Phantom', address, publicKey: Array.from(publicKey), icon: ICON }
  await page.addInitScript({ content: `${PAGE_SCRIPT}(${JSON.stringify(pageOptions)});` })
  return { address, publicKey, rejectSignatures: (n = 1) => void (reject += n), signed }
}
