import { useId, useMemo, useState, type ReactNode } from 'react'
import {
  AsYouType,
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js'
import { useOptionalKernel } from './optional-kernel'

export interface PhoneValue {
  country: CountryCode
  /** As typed, formatted for the country. */
  formatted: string
  /** E.164 ('+14155550123') when the number parses, else null. */
  e164: string | null
  /** Valid for the selected country. */
  valid: boolean
}

export interface PhoneInputProps {
  /** Default 'Phone number'. */
  label?: string
  hideLabel?: boolean
  /** Initial country; default `config.intl.defaultCountry` inside a provider, else 'US'. */
  defaultCountry?: string
  /** Reports every change (and country switches, which clear the number). */
  onChange?: (value: PhoneValue) => void
  /** Enter pressed with a valid number. */
  onSubmit?: (value: PhoneValue) => void
  error?: string | null
  disabled?: boolean
  /** Content on the right (a submit button). */
  trailing?: ReactNode
  autoFocus?: boolean
}

let countryNames: Intl.DisplayNames | null = null
const countryName = (code: string) => {
  try {
    countryNames ??= new Intl.DisplayNames(['en'], { type: 'region' })
    return countryNames.of(code) ?? code
  } catch {
    return code
  }
}

function evaluate(country: CountryCode, raw: string): PhoneValue {
  const formatted = raw ? new AsYouType(country).input(raw) : ''
  const parsed = raw ? parsePhoneNumberFromString(raw, country) : undefined
  const valid = !!parsed && parsed.isValid() && (!parsed.country || parsed.country === country || raw.trim().startsWith('+'))
  return { country, formatted, e164: parsed ? parsed.number : null, valid }
}

/**
 * Phone number field: country selector (calling codes), formatting as typed (libphonenumber-js
 * AsYouType), validity for the selected country. Changing the country clears the number.
 */
export function PhoneInput({
  label = 'Phone number',
  hideLabel,
  defaultCountry,
  onChange,
  onSubmit,
  error,
  disabled,
  trailing,
  autoFocus,
}: PhoneInputProps) {
  const kernel = useOptionalKernel()
  const countries = useMemo(() => getCountries(), [])
  const initial = (defaultCountry ?? kernel?.config.intl.defaultCountry ?? 'US').toUpperCase() as CountryCode
  const [country, setCountry] = useState<CountryCode>(countries.includes(initial) ? initial : 'US')
  const [value, setValue] = useState<PhoneValue>(() => evaluate(country, ''))
  const id = useId()
  const options = useMemo(
    () =>
      countries
        .map((c) => ({ code: c, name: countryName(c), dial: getCountryCallingCode(c) }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    [countries],
  )
  const update = (next: PhoneValue) => {
    setValue(next)
    onChange?.(next)
  }
  return (
    <div className="portico-field" data-invalid={error ? '' : undefined}>
      <label htmlFor={`${id}-number`} className={hideLabel ? 'portico-visually-hidden' : 'portico-label'}>
        {label}
      </label>
      <div className="portico-input-wrap portico-phone">
        <span className="portico-phone-country">
          <select
            aria-label="Country"
            className="portico-phone-select"
            value={country}
            disabled={disabled}
            onChange={(e) => {
              const c = e.target.value as CountryCode
              setCountry(c)
              update(evaluate(c, ''))
            }}
          >
            {options.map((o) => (
              <option key={o.code} value={o.code}>
                {o.name} +{o.dial}
              </option>
            ))}
          </select>
          <span className="portico-phone-dial" aria-hidden="true">
            {country} +{getCountryCallingCode(country)}
          </span>
        </span>
        <input
          id={`${id}-number`}
          className="portico-input"
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          value={value.formatted}
          disabled={disabled}
          autoFocus={autoFocus}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-msg` : undefined}
          onChange={(e) => {
            // Deleting a formatting character must not be undone by the formatter.
            const raw = e.target.value
            const digitsOnlyDelete = raw.length < value.formatted.length && raw.replace(/\D/g, '') === value.formatted.replace(/\D/g, '')
            const text = digitsOnlyDelete ? raw.replace(/\D/g, '').slice(0, -1) : raw
            update(evaluate(country, text))
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && value.valid) {
              e.preventDefault()
              onSubmit?.(value)
            }
          }}
        />
        {trailing ? <span className="portico-input-trailing">{trailing}</span> : null}
      </div>
      {error ? (
        <p id={`${id}-msg`} className="portico-field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  )
}
