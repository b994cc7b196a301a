import { describe, expect, it, vi } from 'vitest'
import { createStore, PorticoError, type User, type WireAuthResponse } from 'portico'
import { INITIAL_CODE_STATE, type CodeFlowState } from './flow'
import { codeLoginApi, createCodeLogin } from './login'

const response = (over: Partial<WireAuthResponse> = {}) => ({ user: { id: 'u1' }, token: 't', refresh_token: 'r', is_new_user: false, ...over }) as unknown as WireAuthResponse

function setup(o: { user?: Partial<User> | null; disableSignup?: boolean; failure?: (e: unknown) => unknown } = {}) {
  let user = (o.user ?? null) as User | null
  const ctx = {
    session: {
      get authenticated() {
        return user !== null
      },
      get user() {
        return user
      },
      setUser: vi.fn((u: unknown) => (user = { ...(u as object), viaSetUser: true } as unknown as User)),
      apply: vi.fn((r: WireAuthResponse) => ({ user: (user = { ...user, ...(r.user as object), viaApply: true } as unknown as User) })),
    },
    completeLogin: vi.fn(async (r: WireAuthResponse) => ({ user: r.user as unknown as User, isNewUser: r.is_new_user })),
    assertLoggedOut: vi.fn(() => {
      if (user) throw new PorticoError('already_logged_in', 'Already logged in')
    }),
  }
  const calls = {
    login: vi.fn(async (_d: string, _c: string, _m: string) => response({ is_new_user: true })),
    link: vi.fn(async (_d: string, _c: string) => response()),
    update: vi.fn(async (_o: string, _d: string, _c: string) => ({ user: { id: 'u1', updated: true } }) as never),
  }
  const store = createStore<CodeFlowState>(INITIAL_CODE_STATE)
  const login = createCodeLogin({
    ctx: ctx as never,
    store,
    method: 'thing',
    texts: () => ({ codeNumeric: 'numeric!', codeLength: 'six!', mustBeAuthenticated: 'log in first', mustBeAuthenticatedToUpdate: 'log in to update' }),
    send: vi.fn(async () => {}),
    calls,
    current: (u) => (u as unknown as { thing?: string }).thing,
    nothingToUpdate: () => new PorticoError('invalid_data', 'nothing to update'),
    disableSignup: () => o.disableSignup,
    failure: o.failure,
  })
  return { login, ctx, calls, store }
}

describe('the code login', () => {
  it("login: the method's call with the sign-up mode, finished by the kernel's completeLogin", async () => {
    const { login, ctx, calls } = setup()
    await login.flow.send('dest')
    await expect(login.login(' 123 456 ')).resolves.toMatchObject({ isNewUser: true })
    expect(calls.login).toHaveBeenCalledWith('dest', '123456', 'login-or-sign-up')
    expect(ctx.completeLogin).toHaveBeenCalledWith(expect.anything(), { method: 'thing', intent: 'login' })
    await login.flow.send('dest')
    await login.login('123456', undefined, { disableSignup: true })
    expect(calls.login).toHaveBeenLastCalledWith('dest', '123456', 'no-signup')
  })

  it("the method's sign-up option, and a completer of the screens", async () => {
    const { login, ctx, calls } = setup({ disableSignup: true })
    await login.flow.send('dest')
    const complete = vi.fn(async () => ({ user: { id: 'done' } as unknown as User, isNewUser: false }))
    await expect(login.login('123456', undefined, { complete })).resolves.toEqual({ user: { id: 'done' }, isNewUser: false })
    expect(calls.login).toHaveBeenCalledWith('dest', '123456', 'no-signup')
    expect(ctx.completeLogin).not.toHaveBeenCalled()
  })

  it("link needs a user; update replaces the user's own destination, a user record alone is stored as it is", async () => {
    const out = setup()
    await out.login.flow.send('dest', { intent: 'link' })
    await expect(out.login.link('123456')).rejects.toThrow('log in first')

    const { login, calls, ctx } = setup({ user: { id: 'u1', thing: 'old' } as never })
    await login.flow.send('dest', { intent: 'link' })
    await expect(login.link('123456')).resolves.toMatchObject({ viaApply: true })
    expect(calls.link).toHaveBeenCalledWith('dest', '123456')
    await login.flow.send('new', { intent: 'update' })
    await expect(login.update('123456')).resolves.toMatchObject({ updated: true, viaSetUser: true })
    expect(calls.update).toHaveBeenCalledWith('old', 'new', '123456')
    expect(ctx.session.setUser).toHaveBeenCalledTimes(1)
  })

  it('update without a destination of the user\'s own is refused', async () => {
    const { login, calls } = setup({ user: { id: 'u1' } as never })
    await login.flow.send('new', { intent: 'update' })
    await expect(login.update('123456')).rejects.toThrow('nothing to update')
    expect(calls.update).not.toHaveBeenCalled()
  })

  it("the code rule's texts are the method's; a failure is reported as the method says", async () => {
    const { login, calls } = setup({ failure: (e) => new PorticoError('invalid_credentials', `mapped: ${(e as Error).message}`) })
    await login.flow.send('dest')
    await expect(login.login('12a456')).rejects.toThrow('numeric!')
    calls.login.mockRejectedValueOnce(new PorticoError('invalid_credentials', 'wrong'))
    await expect(login.login('123456')).rejects.toThrow('mapped: wrong')
    expect(login.flow.getState().status).toBe('error')
  })
})

describe("the code login's API", () => {
  it('takes the destination under the method\'s own name', async () => {
    const { login, calls, store } = setup({ user: { id: 'u1', thing: 'old' } as never })
    const api = codeLoginApi('phoneNumber', login, store)
    expect(api.state).toBe(store)
    await login.flow.send('dest', { intent: 'link' })
    await api.linkWithCode({ code: '123456', phoneNumber: 'other' })
    expect(calls.link).toHaveBeenCalledWith('other', '123456')
    await login.flow.send('new', { intent: 'update' })
    await api.submitCode('654321')
    expect(calls.update).toHaveBeenCalledWith('old', 'new', '654321')
    expect(api.getState().status).toBe('done')
  })
})
