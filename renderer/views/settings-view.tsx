import type { SettingsView as Settings, SettingsPatch } from '../../src/api/ui-api.js';
import { ViewHeader } from '../components/common.js';
import { useSettingsDraft } from '../drafts/settings-draft.js';
import { useAppStore, useAppStoreShallow } from '../store/store-context.js';
import { ConnectorsSection } from './settings-connectors.js';
import { SettingsForm } from './settings-form.js';
import { ApprovalRulesSection } from './settings-rules.js';

const SECRET_STORE_TEXT: Record<Settings['secretStoreKind'], { badge: string; text: string }> = {
  'os-encrypted': {
    badge: 'ok',
    text: "Secrets (API keys, headers, tokens) are encrypted with your operating system's keychain and never written to the settings file or logs.",
  },
  'file-0600': {
    badge: 'warn',
    text: 'Secrets are kept in a separate file in the data folder that only your user account can read (permissions 0600). The file is not encrypted: any program running as you can read it.',
  },
  memory: {
    badge: 'bad',
    text: 'Secrets are kept in memory only: they are lost when Toolbridge stops, and servers that need them will fail after a restart.',
  },
};

export function SettingsView() {
  const settings = useAppStore((s) => s.settings);
  if (settings === undefined) {
    return (
      <div className="view">
        <ViewHeader title="Settings" lede="Loading…" />
      </div>
    );
  }
  return (
    <div className="view">
      <ViewHeader
        title="Settings"
        lede="How tool search behaves, what needs your approval, and where things are kept."
      />
      <StorageSection settings={settings} />
      <ConnectorsSection settings={settings} />
      <LoadedSettingsForm settings={settings} />
      <ApprovalRulesSection />
    </div>
  );
}

/** Mounted only once settings are loaded, so the draft always starts from real values. */
function LoadedSettingsForm(props: { settings: Settings }) {
  const { updateSettings, markFirstRun } = useAppStoreShallow((s) => ({
    updateSettings: s.updateSettings,
    markFirstRun: s.markFirstRun,
  }));
  const save = async (patch: SettingsPatch) => {
    const outcome = await updateSettings(patch);
    if (outcome.ok) markFirstRun('choose-approvals');
    return outcome;
  };
  return <SettingsForm form={useSettingsDraft(props.settings, save)} />;
}

function StorageSection(props: { settings: Settings }) {
  const { settings } = props;
  const store = SECRET_STORE_TEXT[settings.secretStoreKind];
  return (
    <>
      <h3 className="section-title">Where things are kept</h3>
      <section className="panel panel-body">
        <dl className="kv">
          <dt>Data folder</dt>
          <dd className="mono" data-testid="settings-data-dir">
            {settings.dataDir}
          </dd>
          <dt>Secrets</dt>
          <dd data-testid="settings-secret-store">
            <span className={`badge ${store.badge}`}>{settings.secretStoreKind}</span>
            <p className="mt-s">{store.text}</p>
          </dd>
        </dl>
      </section>
    </>
  );
}
