/**
 * The host page of the recovery browser test: a React app with the e-mail and embedded-wallet
 * plugins and the real modal. `window.rcv` lets the test log in headless (the code comes from
 * the dev outbox) and start what a host app's buttons would start.
 */
import { createRoot } from 'react-dom/client'
import { createPortico, type Portico } from 'portico'
import { PorticoProvider } from 'portico/ui'
import { email } from 'portico/plugins/email'
import { embeddedWallet } from 'portico/plugins/embedded-wallet'

declare global {
  interface Window {
    rcv: {
      kernel: Portico
      sendCode(address: string): Promise<void>
      loginWithCode(code: string): Promise<void>
      wallets(): { address: string; chainType: string; recoveryMethod: string | null }[]
      setRecovery(o?: { options?: ('user-passcode' | 'google-drive' | 'icloud')[]; resetting?: boolean }): Promise<unknown>
      /** Sets a password without the screens (the test's starting point for the update). */
      setPassword(password: string): Promise<void>
      /** Signs with the index-0 Ethereum wallet; connect-time recovery runs when this device has no share. */
      sign(message: string): Promise<string>
      status(): string
      /** importWallet through the plugin API; resolves with the imported wallet's public fields or the error's message. */
      importWallet(privateKey: string, chainType?: 'ethereum' | 'solana'): Promise<{ address?: string; imported?: boolean; walletIndex?: number; error?: string }>
      /** Signs with the embedded wallet at `address`. */
      signWith(address: string, message: string): Promise<string>
    }
  }
}

const cfg = (await (await fetch('/config.json')).json()) as { appId: string; apiUrl: string; frameUrl: string }
const theme = new URLSearchParams(location.search).get('theme') === 'dark' ? 'dark' : 'light'
const automaticRecovery = new URLSearchParams(location.search).get('automatic') === '1'
const appId = new URLSearchParams(location.search).get('app') ?? cfg.appId
const kernel = createPortico({ appId, apiUrl: cfg.apiUrl, appearance: { theme }, plugins: [email(), embeddedWallet({ frameUrl: cfg.frameUrl, automaticRecovery })] })
const wallet = () => kernel.plugin('embedded-wallet')!

window.rcv = {
  kernel,
  sendCode: (address) => kernel.plugin('email')!.sendCode({ email: address }),
  loginWithCode: async (code) => void (await kernel.plugin('email')!.loginWithCode({ code })),
  wallets: () => wallet().wallets().map((w) => ({ address: w.address, chainType: w.chainType, recoveryMethod: w.recoveryMethod })),
  setRecovery: (o) => wallet().recovery!.setWalletRecovery(o),
  setPassword: async (password) => (await wallet().recovery!.controller()).submitPassword(password, 'set'),
  sign: (message) => wallet().signer(wallet().ethereumWallets()[0].address).signMessage(message),
  status: () => wallet().state.get().status,
  importWallet: async (privateKey, chainType) => {
    try {
      const w = await wallet().importWallet({ privateKey, chainType })
      return { address: w.address, imported: w.imported, walletIndex: w.walletIndex }
    } catch (e) {
      return { error: (e as Error).message }
    }
  },
  signWith: (address, message) => wallet().signer(address).signMessage(message),
}

const root = document.createElement('div')
document.body.appendChild(root)
createRoot(root).render(<PorticoProvider kernel={kernel} />)
