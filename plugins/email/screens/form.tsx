/** 'email-form': the e-mail field on a screen of its own (landing row, link, update). */
import { ScreenLayout, useKernel, useScreen, useTexts, MailIcon } from 'portico/ui'
// Through the plugin's entry, not '../strings' (it is loaded anyway before any screen): with
// esbuild's code splitting the whole e-mail plugin then shares one initial chunk (issue 11).
import { EMAIL_TEXTS } from 'portico/plugins/email'
import { EmailField } from './field'

export default function EmailFormScreen() {
  const kernel = useKernel()
  const texts = useTexts('email', EMAIL_TEXTS)
  const { intent } = useScreen()
  const title =
    intent === 'link' ? texts.linkTitle : intent === 'update' ? texts.updateTitle : kernel.config.appearance.landingHeader
  return (
    <ScreenLayout
      title={title}
      icon={
        <span className="portico-badge" data-tone="neutral">
          <MailIcon width={28} height={28} />
        </span>
      }
    >
      <EmailField autoFocus />
    </ScreenLayout>
  )
}
