/** The recovery screens' password field with Show / Hide (setting one, and entering it to recover). */
import { TextInput, type TextInputProps } from 'portico/ui/screens'
import type { RecoveryTexts } from '../strings'

export function PasswordInput({ shown, onToggle, T, ...input }: Omit<TextInputProps, 'type' | 'trailing'> & { shown: boolean; onToggle(): void; T: Pick<RecoveryTexts, 'hidePassword' | 'showPassword' | 'hide' | 'show'> }) {
  return (
    <TextInput
      {...input}
      type={shown ? 'text' : 'password'}
      trailing={
        <button type="button" className="portico-copy" aria-label={shown ? T.hidePassword : T.showPassword} aria-pressed={shown} onClick={onToggle}>
          {shown ? T.hide : T.show}
        </button>
      }
    />
  )
}
