/**
 * Small standard test contracts (ERC-20, ERC-721, ERC-1155, and a switchable reverter) for the
 * local EVM chain, compiled with solc-js (test/chains/evm.ts `compileSolidity`).
 *
 * ```ts
 * const evm = await startEvm()
 * const c = await deployTestContracts(evm)   // { erc20, erc721, erc1155, reverter } addresses + abis
 * ```
 */
import type { Abi, Address, Hex } from 'viem'
import { compileSolidity, type Evm } from './evm'

export const TEST_CONTRACTS_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract TestToken {
  string public name; string public symbol; uint8 public decimals; uint256 public totalSupply;
  mapping(address => uint256) public balanceOf;
  mapping(address => mapping(address => uint256)) public allowance;
  event Transfer(address indexed from, address indexed to, uint256 value);
  event Approval(address indexed owner, address indexed spender, uint256 value);
  constructor(string memory n, string memory s, uint8 d) { name = n; symbol = s; decimals = d; }
  function mint(address to, uint256 amount) external { totalSupply += amount; balanceOf[to] += amount; emit Transfer(address(0), to, amount); }
  function transfer(address to, uint256 amount) external returns (bool) { _move(msg.sender, to, amount); return true; }
  function approve(address spender, uint256 amount) external returns (bool) { allowance[msg.sender][spender] = amount; emit Approval(msg.sender, spender, amount); return true; }
  function transferFrom(address from, address to, uint256 amount) external returns (bool) {
    uint256 a = allowance[from][msg.sender];
    require(a >= amount, "allowance");
    if (a != type(uint256).max) allowance[from][msg.sender] = a - amount;
    _move(from, to, amount); return true;
  }
  function _move(address from, address to, uint256 amount) internal { require(balanceOf[from] >= amount, "balance"); balanceOf[from] -= amount; balanceOf[to] += amount; emit Transfer(from, to, amount); }
}

contract TestNFT {
  string public name = "Test NFT"; string public symbol = "TNFT"; uint256 public next = 1;
  mapping(uint256 => address) public ownerOf; mapping(address => uint256) public balanceOf;
  mapping(uint256 => address) public getApproved; mapping(address => mapping(address => bool)) public isApprovedForAll;
  event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
  function safeMint(address to) external returns (uint256 id) { id = next++; ownerOf[id] = to; balanceOf[to]++; emit Transfer(address(0), to, id); }
  function approve(address to, uint256 id) external { require(ownerOf[id] == msg.sender, "owner"); getApproved[id] = to; }
  function setApprovalForAll(address op, bool ok) external { isApprovedForAll[msg.sender][op] = ok; }
  function transferFrom(address from, address to, uint256 id) public {
    require(ownerOf[id] == from, "from");
    require(msg.sender == from || getApproved[id] == msg.sender || isApprovedForAll[from][msg.sender], "auth");
    ownerOf[id] = to; balanceOf[from]--; balanceOf[to]++; getApproved[id] = address(0); emit Transfer(from, to, id);
  }
  function safeTransferFrom(address from, address to, uint256 id) external { transferFrom(from, to, id); }
  function safeTransferFrom(address from, address to, uint256 id, bytes calldata) external { transferFrom(from, to, id); }
}

contract TestMulti {
  mapping(uint256 => mapping(address => uint256)) public balanceOf;
  mapping(address => mapping(address => bool)) public isApprovedForAll;
  function mint(address to, uint256 id, uint256 amount, bytes calldata) external { balanceOf[id][to] += amount; }
  function mintBatch(address to, uint256[] calldata ids, uint256[] calldata amounts, bytes calldata) external { for (uint256 i = 0; i < ids.length; i++) balanceOf[ids[i]][to] += amounts[i]; }
  function setApprovalForAll(address op, bool ok) external { isApprovedForAll[msg.sender][op] = ok; }
  function safeTransferFrom(address from, address to, uint256 id, uint256 amount, bytes calldata) external {
    require(from == msg.sender || isApprovedForAll[from][msg.sender], "auth");
    balanceOf[id][from] -= amount; balanceOf[id][to] += amount;
  }
  function safeBatchTransferFrom(address from, address to, uint256[] calldata ids, uint256[] calldata amounts, bytes calldata) external {
    require(from == msg.sender || isApprovedForAll[from][msg.sender], "auth");
    for (uint256 i = 0; i < ids.length; i++) { balanceOf[ids[i]][from] -= amounts[i]; balanceOf[ids[i]][to] += amounts[i]; }
  }
}

/// Reverts while closed: a test opens it between a failed call and its retry.
contract Switch {
  bool public open; uint256 public pokes;
  function setOpen(bool o) external { open = o; }
  function poke() external { require(open, "Switch: closed"); pokes++; }
}
`

export interface TestContracts {
  erc20: Address
  erc721: Address
  erc1155: Address
  switch: Address
  abi: { erc20: Abi; erc721: Abi; erc1155: Abi; switch: Abi }
}

let compiled: Record<string, { abi: Abi; bytecode: Hex }> | null = null
export function compileTestContracts() {
  compiled ??= Object.fromEntries(['TestToken', 'TestNFT', 'TestMulti', 'Switch'].map((n) => [n, compileSolidity(TEST_CONTRACTS_SOURCE, n)]))
  return compiled
}

/** Deploys the four test contracts (ERC-20 'Test USD' TUSD with 6 decimals by default). */
export async function deployTestContracts(evm: Evm, token: { name?: string; symbol?: string; decimals?: number } = {}): Promise<TestContracts> {
  const c = compileTestContracts()
  const erc20 = await evm.deploy(c.TestToken.abi, c.TestToken.bytecode, [token.name ?? 'Test USD', token.symbol ?? 'TUSD', token.decimals ?? 6])
  const erc721 = await evm.deploy(c.TestNFT.abi, c.TestNFT.bytecode)
  const erc1155 = await evm.deploy(c.TestMulti.abi, c.TestMulti.bytecode)
  const sw = await evm.deploy(c.Switch.abi, c.Switch.bytecode)
  return { erc20, erc721, erc1155, switch: sw, abi: { erc20: c.TestToken.abi, erc721: c.TestNFT.abi, erc1155: c.TestMulti.abi, switch: c.Switch.abi } }
}
