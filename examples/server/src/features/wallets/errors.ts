/** The wallets' error texts and errors. */
import { ApiError } from '../../core/errors'

export const WALLET_MSG = {
  alreadyExists: 'User already has an embedded wallet.',
  negativeIndex: 'A negative walletIndex is invalid.',
  needsIndexZero: 'An additional wallet needs a wallet at index 0 first.',
  notFound: 'Embedded wallet not found',
  frameOnly: 'Wallet secrets are released to the wallet frame only.',
  noFrame: 'Embedded wallets are not configured on this server (no wallet frame origin).',
  recoveryNotSupported: 'Recovery method not supported',
  badAddress: 'address: not a valid address for this chain type',
  addressTaken: 'This account has already been linked to another user.',
  importedHasNoSiblings: 'An imported wallet has no other wallets: create or add wallets on your embedded wallet.',
  importMismatch: 'entropy_id: an imported wallet is named by its own address',
} as const

/** No wallet frame origin configured: embedded wallets are off. */
export const noFrame = () => new ApiError(403, 'embedded_wallets_disabled', WALLET_MSG.noFrame)

export const addressTaken = () => new ApiError(400, 'linked_to_another_user', WALLET_MSG.addressTaken)

export const alreadyExists = () => new ApiError(400, 'embedded_wallet_already_exists', WALLET_MSG.alreadyExists)

export const notFound = () => new ApiError(404, 'embedded_wallet_not_found', WALLET_MSG.notFound)
