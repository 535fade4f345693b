import { useId, useRef, type ReactNode } from 'react';

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
  const cancel = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const questionId = useId();
  const open = () => {
    dialog.current?.showModal();
    // Cancel first: one Enter must not delete. (React does not focus an autoFocus button of a
    // dialog that opens after it mounted.)
    cancel.current?.focus();
  };
  const close = () => {
    dialog.current?.close();
    opener.current?.focus();
  };
  return (
    <>
      <button
        type="button"
        className={`ui-button${danger ? ' ui-button-danger' : ''}`}
        disabled={pending}
        ref={opener}
        onClick={open}
      >
        {pending ? 'Working…' : label}
      </button>
      <dialog
        ref={dialog}
        className="ui-dialog"
        aria-label={label}
        aria-describedby={questionId}
        onClose={() => opener.current?.focus()}
      >
        <p id={questionId}>{question}</p>
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
          <button type="button" className="ui-button" ref={cancel} onClick={close}>
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}
