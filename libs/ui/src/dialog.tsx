import { useRef, type ReactNode } from 'react';

/**
 * A button that asks before it acts (delete, revoke ...): a modal <dialog> with the question,
 * focus on Cancel, Escape closes it.
 */
export function ConfirmButton({
  label,
  question,
  confirmLabel = label,
  onConfirm,
  pending,
  danger = true,
}: {
  label: string;
  question: ReactNode;
  confirmLabel?: string;
  onConfirm(): void;
  pending?: boolean;
  danger?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button
        type="button"
        className={`ui-button${danger ? ' ui-button-danger' : ''}`}
        disabled={pending}
        onClick={() => dialog.current?.showModal()}
      >
        {pending ? 'Working…' : label}
      </button>
      <dialog ref={dialog} className="ui-dialog" aria-label={label}>
        <p>{question}</p>
        <div className="ui-actions">
          <button
            type="button"
            className={`ui-button${danger ? ' ui-button-danger' : ' ui-button-primary'}`}
            onClick={() => {
              dialog.current?.close();
              onConfirm();
            }}
          >
            {confirmLabel}
          </button>
          <button
            type="button"
            className="ui-button"
            autoFocus
            onClick={() => dialog.current?.close()}
          >
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}
