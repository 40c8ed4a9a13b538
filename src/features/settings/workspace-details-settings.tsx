/**
 * Settings > Workspace > Details: the workspace's name (the header, the switcher, invoices, the
 * portal), the currency new clients, projects and invoices start in, the time zone its days and
 * reminders are counted in, the portal's brand colour and welcome text. Read from the device's
 * copy of the workspace (so shown offline too); changed online by owners and admins through
 * update-workspace-settings, checked first against the same schema the server uses. The saved
 * row reaches this device (and every other) with the pull it asks for.
 */
import { Building2 } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { updateWorkspaceSettings } from '#contract/endpoints/workspace.ts';
import {
  updateWorkspaceSettingsInputSchema,
  type WorkspaceRole,
} from '#contract/entities/workspace.ts';
import type { LocalWorkspace } from '../../db/app-database.ts';
import { Button } from '../../ui/button.tsx';
import { FormTextArea } from '../../ui/form-text-area.tsx';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { useToast } from '../../ui/use-toast.ts';
import { useCallEndpoint, useOnline } from '../activity/activity-timeline.tsx';
import { focusFirstInvalid, validateFields } from '../auth/field-errors.ts';
import { FormAlert } from '../auth/form-alert.tsx';
import { readSubmitFailure } from '../marketing/form-errors.ts';
import { useOptionalSync } from '../workspace/sync-context.tsx';
import { useWorkspaceChoices } from '../workspace/use-workspace.ts';
import { SettingsSection } from './settings-section.tsx';

type Field = 'name' | 'currency' | 'timeZone' | 'brandColor' | 'portalWelcomeText';
type Values = Record<Field, string>;

export const DETAILS_OFFLINE_TEXT =
  'The workspace’s details are changed online. Connect to change them.';

/** The currencies offered first; the workspace's own is always among the choices. */
const COMMON_CURRENCIES = [
  'USD',
  'EUR',
  'GBP',
  'CAD',
  'AUD',
  'NZD',
  'CHF',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
  'CZK',
  'JPY',
  'INR',
  'SGD',
  'HKD',
  'ZAR',
  'BRL',
  'MXN',
  'AED',
];

function timeZones(current: string): string[] {
  const all =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return all.includes(current) ? all : [current, ...all];
}

const toValues = (workspace: LocalWorkspace): Values => ({
  name: workspace.name,
  currency: workspace.currency,
  timeZone: workspace.timeZone,
  brandColor: workspace.brandColor ?? '',
  portalWelcomeText: workspace.portalWelcomeText ?? '',
});

/** Only what changed, as the contract's body (an emptied colour or welcome text clears it). */
function patchOf(saved: Values, values: Values): Record<string, string | null> {
  const patch: Record<string, string | null> = {};
  for (const field of Object.keys(values) as Field[]) {
    if (values[field] === saved[field]) continue;
    const value = values[field];
    patch[field] =
      (field === 'brandColor' || field === 'portalWelcomeText') && value.trim() === ''
        ? null
        : value;
  }
  return patch;
}

export interface WorkspaceDetailsSettingsProps {
  callEndpoint?: CallEndpoint;
}

export function WorkspaceDetailsSettings({ callEndpoint }: WorkspaceDetailsSettingsProps) {
  const sync = useOptionalSync();
  if (!sync) return null;
  return <FromDevice {...(callEndpoint ? { callEndpoint } : {})} />;
}

function FromDevice({ callEndpoint }: WorkspaceDetailsSettingsProps) {
  const choices = useWorkspaceChoices();
  const current = choices?.current;
  if (!current) return null;
  const role = choices.choices.find((choice) => choice.workspace.id === current.id)?.role ?? null;
  // Keyed on the workspace: switching workspaces starts the form over.
  return <Details key={current.id} workspace={current} role={role} override={callEndpoint} />;
}

function Details({
  workspace,
  role,
  override,
}: {
  workspace: LocalWorkspace;
  role: WorkspaceRole | null;
  override: CallEndpoint | undefined;
}) {
  const callEndpoint = useCallEndpoint(override);
  const sync = useOptionalSync();
  const online = useOnline();
  const toast = useToast();
  const formRef = useRef<HTMLFormElement>(null);
  const saved = toValues(workspace);
  const [values, setValues] = useState<Values>(saved);
  const [errors, setErrors] = useState<Partial<Record<Field | 'form', string>>>({});
  const [pending, setPending] = useState(false);
  const canManage = role === 'owner' || role === 'admin';
  const patch = patchOf(saved, values);
  const changed = Object.keys(patch).length > 0;

  const update = (field: Field) => (value: string) => {
    setValues((previous) => ({ ...previous, [field]: value }));
    setErrors(({ [field]: _, form: __, ...rest }) => rest);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!callEndpoint || pending || !changed) return;
    const checked = validateFields<Field, typeof updateWorkspaceSettingsInputSchema>(
      updateWorkspaceSettingsInputSchema,
      patch,
    );
    if (!checked.success) {
      setErrors(checked.errors);
      focusFirstInvalid(formRef.current);
      return;
    }
    setPending(true);
    try {
      await callEndpoint(updateWorkspaceSettings, {
        query: { workspaceId: workspace.id },
        body: checked.output,
      });
      setErrors({});
      toast.show({ tone: 'success', message: 'Workspace details saved' });
      // The saved row comes back with a pull: the header and every screen follow.
      sync?.handle.reconnect();
    } catch (failure) {
      const read = readSubmitFailure<Field>(failure);
      setErrors({ ...read.fieldErrors, form: read.message });
      focusFirstInvalid(formRef.current);
    } finally {
      setPending(false);
    }
  };

  const disabled = !canManage || !online;
  const currencies = COMMON_CURRENCIES.includes(values.currency)
    ? COMMON_CURRENCIES
    : [values.currency, ...COMMON_CURRENCIES];

  return (
    <SettingsSection
      title="Details"
      description="Your workspace’s name, the currency and time zone it works in, and how the client portal greets your clients."
      icon={<Building2 aria-hidden="true" size={20} />}
    >
      <form
        ref={formRef}
        noValidate
        onSubmit={(event) => void submit(event)}
        className="flex flex-col gap-4"
      >
        {!canManage ? (
          <FormAlert tone="info">
            Only the workspace’s owner and admins change its details.
          </FormAlert>
        ) : !online ? (
          <FormAlert tone="info">{DETAILS_OFFLINE_TEXT}</FormAlert>
        ) : null}
        {errors.form ? <FormAlert>{errors.form}</FormAlert> : null}
        <FormTextField
          label="Workspace name"
          name="name"
          value={values.name}
          onChange={update('name')}
          error={errors.name}
          isRequired
          isDisabled={disabled}
          description="In the header, on invoices and in the client portal."
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label="Currency"
            options={currencies.map((code) => ({ id: code, label: code }))}
            value={values.currency}
            onChange={update('currency')}
            error={errors.currency}
            isDisabled={disabled}
            description="New clients, projects and invoices start in it."
          />
          <SelectField
            label="Time zone"
            options={timeZones(values.timeZone).map((zone) => ({
              id: zone,
              label: zone.replaceAll('_', ' '),
            }))}
            value={values.timeZone}
            onChange={update('timeZone')}
            error={errors.timeZone}
            isDisabled={disabled}
            description="Due days, the calendar and reminders count in it."
          />
        </div>
        <FormTextField
          label="Brand colour (optional)"
          name="brandColor"
          value={values.brandColor}
          onChange={update('brandColor')}
          error={errors.brandColor}
          placeholder="#A0522D"
          isDisabled={disabled}
          className="sm:max-w-xs"
          description="The client portal’s accent, on plans with your own branding."
          trailing={
            /^#[0-9a-fA-F]{6}$/.test(values.brandColor) ? (
              <span
                aria-hidden="true"
                className="size-6 shrink-0 self-center rounded-md border border-border"
                style={{ backgroundColor: values.brandColor }}
              />
            ) : null
          }
        />
        <FormTextArea
          label="Portal welcome (optional)"
          name="portalWelcomeText"
          value={values.portalWelcomeText}
          onChange={update('portalWelcomeText')}
          error={errors.portalWelcomeText}
          isDisabled={disabled}
          description="Your clients read it at the top of their project in the portal."
        />
        <div>
          <Button type="submit" isPending={pending} isDisabled={disabled || !changed}>
            Save details
          </Button>
        </div>
      </form>
    </SettingsSection>
  );
}
