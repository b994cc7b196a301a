/**
 * Test stand-in for the providers' widget scripts (not part of the entry): defines
 * `window.turnstile` / `window.hcaptcha` with the explicit-render API. A site key starting with
 * `fail` calls the error callback, `interactive` draws a button the user must click, anything
 * else passes after a task. Tokens are `pass.<sitekey>.<n>` (the siteverify stand-in of
 * test/stand-ins/captcha.ts accepts them once). Served to Chromium by the e2e specs.
 */
export function widgetScript(global: 'turnstile' | 'hcaptcha'): string {
  return `(() => {
  let next = 0;
  const widgets = new Map();
  const run = (id) => {
    const w = widgets.get(id);
    if (!w) return;
    w.el.textContent = '';
    if (String(w.opts.sitekey).startsWith('fail')) {
      setTimeout(() => w.opts['error-callback'] && w.opts['error-callback']('stand-in-failure'), 10);
      return;
    }
    const pass = () => w.opts.callback('pass.' + w.opts.sitekey + '.' + Date.now().toString(36) + '.' + (++next));
    if (String(w.opts.sitekey).startsWith('interactive')) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = 'I am human';
      b.addEventListener('click', pass);
      w.el.appendChild(b);
      return;
    }
    setTimeout(pass, 10);
  };
  window.${global} = {
    render(container, opts) {
      const el = typeof container === 'string' ? document.querySelector(container) : container;
      const id = 'w' + (++next);
      widgets.set(id, { el, opts });
      run(id);
      return id;
    },
    reset(id) { run(id); },
    remove(id) { const w = widgets.get(id); if (w) w.el.textContent = ''; widgets.delete(id); },
  };
})();`
}

