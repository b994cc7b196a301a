/** 'email-form': the e-mail field on a screen of its own (landing row, link, update). */
import { ScreenLayout, useKernel, useScreen, icons } from 'portico/ui'
import { EMAIL_TEXTS } from '../strings'
import { EmailField } from './field'

export default function EmailFormScreen() {
  const kernel = useKernel()
  const { intent } = useScreen()
  const title =
    intent === 'link' ? EMAIL_TEXTS.linkTitle : intent === 'update' ? EMAIL_TEXTS.updateTitle : kernel.config.appearance.landingHeader
  return (
    <ScreenLayout
      title={title}
      icon={
        <span className="portico-badge" data-tone="neutral">
          <icons.MailIcon width={28} height={28} />
        </span>
      }
    >
      <EmailField autoFocus />
    </ScreenLayout>
  )
}
