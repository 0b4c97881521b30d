import { useEffect, useRef } from 'react';
import { useTranslation } from '../../../i18n/i18n-context';

/** The part of the Barcode Detection API the scanner uses (not in TypeScript's DOM types yet). */
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
type BarcodeDetectorClass = new (options: { formats: string[] }) => BarcodeDetectorLike;

function detectorClass(): BarcodeDetectorClass | null {
  const candidate = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  return candidate ?? null;
}

/** Whether this browser can read QR codes from the camera (the Barcode Detection API). */
export const canScan = () => detectorClass() !== null && !!navigator.mediaDevices?.getUserMedia;

interface QrScannerProps {
  onCode: (code: string) => void;
  onError: () => void;
}

/**
 * The device camera, read for a QR code a few times a second with the browser's BarcodeDetector;
 * the first code read is handed over and the camera stops (the parent unmounts the scanner).
 */
export function QrScanner({ onCode, onError }: QrScannerProps) {
  const { t } = useTranslation('admin-check-in');
  const video = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    const Detector = detectorClass();
    if (!Detector) return;
    const detector = new Detector({ formats: ['qr_code'] });
    let stream: MediaStream | null = null;
    let timer: number | undefined;
    let done = false;
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'environment' } })
      .then(async (s) => {
        stream = s;
        if (done || !video.current) return;
        video.current.srcObject = s;
        await video.current.play();
        timer = window.setInterval(() => {
          if (!video.current || done) return;
          detector
            .detect(video.current)
            .then((codes) => {
              const first = codes[0]?.rawValue;
              if (first && !done) {
                done = true;
                onCode(first);
              }
            })
            .catch(() => undefined);
        }, 250);
      })
      .catch(() => onError());
    return () => {
      done = true;
      window.clearInterval(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, [onCode, onError]);

  return (
    <video ref={video} className="check-in__video" muted playsInline aria-label={t('scan.video')} />
  );
}
