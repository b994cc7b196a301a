/** Every text of the MoonPay funding method (spec part 2, sections 4 'Funding' and 8), overridable under `texts: { moonpay: {...} }`. */
export const MOONPAY_TEXTS = {
  label: 'Buy with MoonPay',
  description: 'Pay with a card through MoonPay',
  openingTitle: 'Opening MoonPay',
  openingDescription: 'Complete your purchase in the MoonPay window.',
  fundedTitle: "You've funded your account!",
  fundedDescription: 'It may take a few minutes for the assets to appear.',
  processingTitle: 'Processing payment',
  processingDescription: 'This may take up to a few hours. You will receive an email when the purchase is complete.',
  inProgressTitle: 'In Progress',
  inProgressDescription: 'Go back to MoonPay to finish funding your account.',
  failure: 'Something went wrong adding funds from Moonpay. Please try again or use another method to fund your wallet.',
  popupBlocked: 'Unable to initialize flow',
  continue: 'Continue',
  tryAgain: 'Try again',
  chooseAnotherMethod: 'Choose another method',
  unknownChain: 'MoonPay does not support chain {chainId}: it defaults to Ethereum.',
}
