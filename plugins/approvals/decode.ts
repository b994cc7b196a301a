/**
 * Calldata decoding (part 2 section 3, 'Decoded transaction details'; section 9): viem's
 * `decodeFunctionData` over the ERC-20, ERC-721 and ERC-1155 functions the spec recognises —
 * approve, transfer, transferFrom, safeTransferFrom, safeBatchTransferFrom,
 * setApprovalForAll and the mint functions mint, safeMint, batchMint, mintBatch — into an
 * action (approve, transfer, batch transfer, mint or transaction). Loaded lazily with viem.
 */
import { decodeFunctionData, maxUint256, parseAbi, type Abi, type Hex } from 'viem'

export type DecodedAction = 'approve' | 'transfer' | 'batch transfer' | 'mint' | 'transaction'

export interface DecodedTransaction {
  action: DecodedAction
  functionName?: string
  /** ERC-20-like (approve/transfer with an amount) vs NFT-like (token ids). */
  isErc20Ish: boolean
  isNFTIsh: boolean
  spender?: string
  amount?: bigint
  /** True when an approval's amount is max uint256 (shown 'Maximum'). */
  isMaximum?: boolean
  transferFrom?: string
  transferTo?: string
  tokenId?: bigint
  tokenIds?: bigint[]
  amounts?: bigint[]
  operator?: string
  approved?: boolean
  args?: readonly unknown[]
}

/** ERC-20 (transfer, approve, transferFrom) and mint(to, amount). */
export const ERC20_ABI = parseAbi([
  'function approve(address spender, uint256 amount) returns (bool)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function transferFrom(address from, address to, uint256 amount) returns (bool)',
  'function mint(address to, uint256 amount)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function balanceOf(address owner) view returns (uint256)',
])

/** ERC-721 (token ids) and its common mints. */
export const ERC721_ABI = parseAbi([
  'function approve(address to, uint256 tokenId)',
  'function transferFrom(address from, address to, uint256 tokenId)',
  'function safeTransferFrom(address from, address to, uint256 tokenId)',
  'function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)',
  'function setApprovalForAll(address operator, bool approved)',
  'function safeMint(address to, uint256 tokenId)',
  'function safeMint(address to)',
  'function mint(address to)',
  'function batchMint(address to, uint256[] tokenIds)',
  'function batchMint(address to, uint256 quantity)',
])

/** ERC-1155. */
export const ERC1155_ABI = parseAbi([
  'function safeTransferFrom(address from, address to, uint256 id, uint256 amount, bytes data)',
  'function safeBatchTransferFrom(address from, address to, uint256[] ids, uint256[] amounts, bytes data)',
  'function setApprovalForAll(address operator, bool approved)',
  'function mint(address to, uint256 id, uint256 amount, bytes data)',
  'function mintBatch(address to, uint256[] ids, uint256[] amounts, bytes data)',
])

const MINTS = new Set(['mint', 'safeMint', 'batchMint', 'mintBatch'])

function tryDecode(abi: Abi, data: Hex) {
  try {
    return decodeFunctionData({ abi, data })
  } catch {
    return null
  }
}

/**
 * Decodes `data` (the transaction's calldata). Selectors shared by ERC-20 and ERC-721
 * (approve, transferFrom: same types) decode as ERC-20 unless `isNft` says the contract is
 * an NFT (the caller may check ERC-165 or `decimals()`).
 */
export function decodeCalldata(data: Hex | undefined | null, options: { isNft?: boolean } = {}): DecodedTransaction {
  const plain: DecodedTransaction = { action: 'transaction', isErc20Ish: false, isNFTIsh: false }
  if (!data || data === '0x' || data.length < 10) return plain
  const order: Array<[Abi, 'erc20' | 'erc721' | 'erc1155']> = options.isNft
    ? [[ERC721_ABI, 'erc721'], [ERC1155_ABI, 'erc1155'], [ERC20_ABI, 'erc20']]
    : [[ERC20_ABI, 'erc20'], [ERC721_ABI, 'erc721'], [ERC1155_ABI, 'erc1155']]
  for (const [abi, kind] of order) {
    const d = tryDecode(abi, data)
    if (!d) continue
    const fn = d.functionName as string
    const a = (d.args ?? []) as readonly unknown[]
    const base = { functionName: fn, args: a, isErc20Ish: kind === 'erc20', isNFTIsh: kind !== 'erc20' }
    switch (fn) {
      case 'approve':
        return kind === 'erc20'
          ? { ...base, action: 'approve', spender: a[0] as string, amount: a[1] as bigint, isMaximum: a[1] === maxUint256 }
          : { ...base, action: 'approve', spender: a[0] as string, tokenId: a[1] as bigint }
      case 'setApprovalForAll':
        return { ...base, action: 'approve', operator: a[0] as string, approved: a[1] as boolean }
      case 'transfer':
        return { ...base, action: 'transfer', transferTo: a[0] as string, amount: a[1] as bigint }
      case 'transferFrom':
        return kind === 'erc20'
          ? { ...base, action: 'transfer', transferFrom: a[0] as string, transferTo: a[1] as string, amount: a[2] as bigint }
          : { ...base, action: 'transfer', transferFrom: a[0] as string, transferTo: a[1] as string, tokenId: a[2] as bigint }
      case 'safeTransferFrom':
        return kind === 'erc1155'
          ? { ...base, action: 'transfer', transferFrom: a[0] as string, transferTo: a[1] as string, tokenId: a[2] as bigint, amount: a[3] as bigint }
          : { ...base, action: 'transfer', transferFrom: a[0] as string, transferTo: a[1] as string, tokenId: a[2] as bigint }
      case 'safeBatchTransferFrom':
        return {
          ...base,
          action: 'batch transfer',
          transferFrom: a[0] as string,
          transferTo: a[1] as string,
          tokenIds: a[2] as bigint[],
          amounts: a[3] as bigint[],
        }
      default:
        if (MINTS.has(fn)) {
          const m: DecodedTransaction = { ...base, action: 'mint', transferTo: a[0] as string }
          if (kind === 'erc20') m.amount = a[1] as bigint
          else if (fn === 'mintBatch') Object.assign(m, { tokenIds: a[1] as bigint[], amounts: a[2] as bigint[] })
          else if (kind === 'erc1155') Object.assign(m, { tokenId: a[1] as bigint, amount: a[2] as bigint })
          else if (Array.isArray(a[1])) m.tokenIds = a[1] as bigint[]
          else if (typeof a[1] === 'bigint') m[fn === 'batchMint' ? 'amount' : 'tokenId'] = a[1]
          return m
        }
        return { ...plain, functionName: fn, args: a }
    }
  }
  return plain
}
