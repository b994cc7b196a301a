/** What the server reads from a User-Agent (labels only: never a credential). */

/** Browser and OS named by a User-Agent (only the families a title needs). */
export function browserAndOs(ua: string | undefined): { browser: string | null; os: string | null } {
  const u = (ua ?? '').slice(0, 512)
  const browser = /Edg(e|A|iOS)?\//.test(u)
    ? 'Edge'
    : /OPR\//.test(u)
      ? 'Opera'
      : /(Firefox|FxiOS)\//.test(u)
        ? 'Firefox'
        : /(Chrome|CriOS|Chromium)\//.test(u)
          ? 'Chrome'
          : /Version\/[\d.]+.*Safari\//.test(u)
            ? 'Safari'
            : null
  const os = /Windows/.test(u)
    ? 'Windows'
    : /iPhone|iPad|iPod/.test(u)
      ? 'iOS'
      : /Android/.test(u)
        ? 'Android'
        : /CrOS/.test(u)
          ? 'ChromeOS'
          : /Mac OS X|Macintosh/.test(u)
            ? 'macOS'
            : /Linux/.test(u)
              ? 'Linux'
              : null
  return { browser, os }
}
