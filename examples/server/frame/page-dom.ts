/**
 * What the wallet service's visible pages (export, delegation consent) share: the theme from the
 * page's config (colours checked on the server: #rgb / #rrggbb, set through the CSSOM, which the
 * CSP allows) and a small element builder (no innerHTML).
 */
export interface PageTheme {
  theme: 'light' | 'dark'
  colors: { accent?: string; background?: string; foreground?: string }
}

/** `prefix`: the page's CSS variable prefix ('x' export, 'c' consent). */
export function applyTheme(c: PageTheme, prefix: string): void {
  const root = document.documentElement
  root.dataset.theme = c.theme
  if (c.colors.accent) root.style.setProperty(`--${prefix}-accent`, c.colors.accent)
  if (c.colors.background) root.style.setProperty(`--${prefix}-bg`, c.colors.background)
  if (c.colors.foreground) root.style.setProperty(`--${prefix}-fg`, c.colors.foreground)
}

export const el = <K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]) => {
  const e = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v)
  e.append(...children)
  return e
}
