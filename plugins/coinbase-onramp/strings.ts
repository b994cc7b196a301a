/** Every text of the Coinbase Onramp funding methods (spec part 2, sections 4, 5 and 8), overridable under `texts: { 'coinbase-onramp': {...} }`. */
export const COINBASE_ONRAMP_TEXTS = {
  cardLabel: 'Buy with Coinbase',
  cardDescription: 'Pay with a card through Coinbase',
  exchangeLabel: 'Transfer from Coinbase',
  exchangeDescription: 'Send from your Coinbase account',
  openingTitle: 'Opening Coinbase',
  openingDescription: 'Complete your purchase in the Coinbase window.',
  fundedTitle: "You've funded your account!",
  fundedDescription: 'It may take a few minutes for the assets to appear.',
  inProgressTitle: 'In Progress',
  inFlowDescription: 'Go back to Coinbase to finish funding your account.',
  afterFlowDescription: 'Retrieving the status of your purchase from Coinbase…',
  failure: 'Something went wrong adding funds. Please try again or use another method.',
  /** (ours) What the user sees on a method that cannot fund this chain; the spec's text below goes to the console. */
  unsupportedChain: 'Coinbase is not available on {network}.',
  /** Spec part 2 section 5 / 8, for developers: the console and the error's message. */
  unsupportedChainDetail: 'Unsupported chainId: {id} for Coinbase Onramp',
  popupBlocked: 'Unable to initialize flow',
  continue: 'Continue',
  chooseAnotherMethod: 'Choose another method',
}
