/**
 * Embedded webviews (the in-app browsers of Instagram, Facebook, Messenger, TikTok, LinkedIn,
 * Snapchat, Line, WeChat, X/Twitter, Pinterest; Android WebViews) where Google refuses OAuth
 * ("disallowed_useragent"): the flow shows the in-app-browser screen instead of a redirect
 * that cannot work. Detection is by user agent, the only signal these browsers give.
 */
const IN_APP = [
  /\bFBA[NV]\//, // Facebook, Messenger
  /\bFB_IAB\b/,
  /\bFBIOS\b/,
  /\bInstagram\b/,
  /\bBytedanceWebview\b|\bmusical_ly\b|\bTikTok\b|\bTrill\b/,
  /\bLinkedInApp\b/,
  /\bSnapchat\b/,
  /\bLine\/\d/,
  /\bMicroMessenger\b/,
  /\bTwitter(?:Android)?\b/,
  /\bPinterest\b/,
  /; wv\)/, // Android System WebView
]

/** Whether this user agent is an app's embedded browser. */
export function isInAppBrowser(userAgent: string | undefined = globalThis.navigator?.userAgent): boolean {
  if (!userAgent) return false
  return IN_APP.some((re) => re.test(userAgent))
}
