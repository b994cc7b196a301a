/** 'email-form': the e-mail field on a screen of its own (landing row, link, update). */
import { ScreenLayout, useKernel, usePlugin, useScreen, MailIcon } from 'portico/ui/screens'
import { EmailField } from './field'

export default function EmailFormScreen() {
  const kernel = useKernel()
  const texts = usePlugin('email').texts() // through the API: see ./field.tsx
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
