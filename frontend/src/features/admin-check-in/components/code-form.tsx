import { useCallback, useId, useState, type FormEvent } from 'react';
import { useTranslation } from '../../../i18n/i18n-context';
import { canScan, QrScanner } from './qr-scanner';

interface CodeFormProps {
  busy: boolean;
  /** Checks in the code; true when it was, which empties the field. */
  onCode: (code: string) => Promise<boolean>;
}

/**
 * The QR reference or booking number, typed, or read by the camera where the browser has
 * BarcodeDetector.
 */
export function CodeForm({ busy, onCode }: CodeFormProps) {
  const { t } = useTranslation('admin-check-in');
  const [code, setCode] = useState('');
  const [scanning, setScanning] = useState(false);
  const [scanFailed, setScanFailed] = useState(false);
  const codeId = useId();

  const submit = useCallback(
    async (value: string) => {
      if (await onCode(value)) setCode('');
    },
    [onCode],
  );
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submit(code);
  };
  const onScanned = useCallback(
    (value: string) => {
      setScanning(false);
      void submit(value);
    },
    [submit],
  );
  const onScanError = useCallback(() => {
    setScanning(false);
    setScanFailed(true);
  }, []);

  return (
    <form className="check-in__code" onSubmit={onSubmit}>
      <label htmlFor={codeId}>{t('code.label')}</label>
      <div className="check-in__code-row">
        <input
          id={codeId}
          className="field__control check-in__field"
          value={code}
          autoComplete="off"
          onChange={(e) => setCode(e.target.value)}
        />
        <button type="submit" className="button" disabled={busy || !code.trim()}>
          {t('code.submit')}
        </button>
        {canScan() ? (
          <button
            type="button"
            className="button button--secondary"
            aria-pressed={scanning}
            onClick={() => {
              setScanFailed(false);
              setScanning((s) => !s);
            }}
          >
            {scanning ? t('scan.stop') : t('scan.start')}
          </button>
        ) : null}
      </div>
      {scanning ? <QrScanner onCode={onScanned} onError={onScanError} /> : null}
      {scanFailed ? <p className="muted">{t('scan.failed')}</p> : null}
    </form>
  );
}
