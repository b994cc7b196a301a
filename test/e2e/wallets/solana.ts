/**
 * A test Solana wallet for browser tests: a wallet-standard wallet registered in the page
 * (`wallet-standard:register-wallet`, and on `wallet-standard:app-ready`), with
 * standard:connect and solana:signMessage; the ed25519 key pair stays in Node
 * (@noble/curves), signatures cross through `page.exposeFunction`.
 */
import type { Page } from 'playwright-core'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { Keypair, VersionedTransaction } from '@solana/web3.js'

export interface TestSolanaWalletOptions {
  /** 32-byte secret key; default: a fixed test key. */
  secretKey?: Uint8Array
  name?: string
  /**
   * A Solana JSON-RPC URL (e.g. the SVM stand-in): the wallet gains `solana:signAndSendTransaction`
   * (signs with the key and sends there) and `solana:signTransaction`.
   */
  rpc?: string
  /** With `rpc`: offer only `solana:signTransaction` (the app sends). */
  signOnly?: boolean
}

export interface TestSolanaWallet {
  address: string
  publicKey: Uint8Array
  rejectSignatures(n?: number): void
  /** Reject the next `n` transaction requests with code 4001. */
  rejectTransactions(n?: number): void
  signed: string[]
  /** Signatures (base58) of the transactions the wallet signed, and how: 'send' (signAndSend) or 'sign'. */
  transactions: { signature: string; mode: 'send' | 'sign'; chain: string }[]
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
    features: o.transactions ? ['solana:signMessage', 'solana:signAndSendTransaction', 'solana:signTransaction'] : ['solana:signMessage'],
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
  async function txCall(mode, input) {
    var reply = await w[o.txBinding](mode, b64(input.transaction), input.chain || '');
    if (reply.error) {
      var err = new Error(reply.error.message);
      err.code = reply.error.code;
      throw err;
    }
    return unb64(reply.bytes);
  }
  var txFeatures = o.transactions ? {
    'solana:signAndSendTransaction': {
      version: '1.0.0',
      supportedTransactionVersions: ['legacy', 0],
      signAndSendTransaction: async function () {
        var out = [];
        for (var i = 0; i < arguments.length; i++) out.push({ signature: await txCall('send', arguments[i]) });
        return out;
      },
    },
    'solana:signTransaction': {
      version: '1.0.0',
      supportedTransactionVersions: ['legacy', 0],
      signTransaction: async function () {
        var out = [];
        for (var i = 0; i < arguments.length; i++) out.push({ signedTransaction: await txCall('sign', arguments[i]) });
        return out;
      },
    },
  } : {};
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
      'solana:signAndSendTransaction': txFeatures['solana:signAndSendTransaction'],
      'solana:signTransaction': txFeatures['solana:signTransaction'],
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
  if (!o.transactions) {
    delete wallet.features['solana:signAndSendTransaction'];
    delete wallet.features['solana:signTransaction'];
  }
  if (o.signOnly) delete wallet.features['solana:signAndSendTransaction'];
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
  let rejectTx = 0
  const transactions: TestSolanaWallet['transactions'] = []
  const txBinding = '__porticoTestSolanaWalletTx'
  if (options.rpc) {
    const rpc = options.rpc
    const keypair = Keypair.fromSeed(secretKey)
    await page.exposeFunction(txBinding, async (mode: 'send' | 'sign', txB64: string, chain: string) => {
      if (rejectTx > 0) {
        rejectTx--
        return { error: { code: 4001, message: 'User rejected the request.' } }
      }
      const tx = VersionedTransaction.deserialize(Buffer.from(txB64, 'base64'))
      tx.sign([keypair])
      const signature = tx.signatures[0]
      transactions.push({ signature: base58.encode(signature), mode, chain })
      if (mode === 'sign') return { bytes: Buffer.from(tx.serialize()).toString('base64') }
      const r = await fetch(rpc, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'sendTransaction', params: [Buffer.from(tx.serialize()).toString('base64'), { encoding: 'base64' }] }),
      })
      const body = (await r.json()) as { error?: { code: number; message: string } }
      if (body.error) return { error: body.error }
      return { bytes: Buffer.from(signature).toString('base64') }
    })
  }
  const pageOptions = { binding, txBinding, transactions: !!options.rpc, signOnly: !!options.signOnly, name: options.name ?? 'Phantom', address, publicKey: Array.from(publicKey), icon: ICON }
  await page.addInitScript({ content: `${PAGE_SCRIPT}(${JSON.stringify(pageOptions)});` })
  return { address, publicKey, rejectSignatures: (n = 1) => void (reject += n), rejectTransactions: (n = 1) => void (rejectTx += n), signed, transactions }
}
