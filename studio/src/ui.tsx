// Small shared pieces: the announcer (one polite live region for what happened, errors inline in
// alerts), labelled fields, copyable text and tabs with the WAI-ARIA keyboard pattern.
import { createContext, type ComponentChildren, type InputHTMLAttributes } from 'preact';
import { useContext, useEffect, useId, useRef, useState } from 'preact/hooks';

type Announce = (message: string) => void;
const AnnouncerContext = createContext<Announce>(() => {});

/** Provides `useAnnounce()` and renders the status line that screen readers read politely. */
export function Announcer({ children }: { children: ComponentChildren }) {
  const [message, setMessage] = useState('');
  const announce = (text: string) => {
    // The same text twice must be read twice: clear first, then set.
    setMessage('');
    requestAnimationFrame(() => setMessage(text));
  };
  return (
    <AnnouncerContext.Provider value={announce}>
      {children}
      <div class="status-line" role="status" aria-live="polite" data-testid="status">
        {message}
      </div>
    </AnnouncerContext.Provider>
  );
}

export const useAnnounce = () => useContext(AnnouncerContext);

/** An error shown where it happened and announced at once (role=alert). */
export function ErrorNote({ message, id }: { message: string | undefined; id?: string }) {
  return (
    <p class="error" role="alert" id={id} hidden={!message}>
      {message}
    </p>
  );
}

interface InputProps {
  label: string;
  value: string;
  onInput: (value: string) => void;
  hint?: string;
  type?: 'text' | 'password' | 'number' | 'date' | 'time';
  placeholder?: string;
  required?: boolean;
  min?: string;
  max?: string;
  step?: string;
  pattern?: string;
  autoComplete?: string;
  list?: string;
}

/** A labelled text input (label element bound by id; the hint is its description). */
export function TextField({ label, value, onInput, hint, ...rest }: InputProps) {
  const id = useId();
  // Preact types inputs per `type`; these props hold for every type used here.
  const attributes = { type: 'text', ...rest } as InputHTMLAttributes;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input {...attributes} id={id} value={value} onInput={(event) => onInput(event.currentTarget.value)} aria-describedby={hint ? `${id}-hint` : undefined} />
      {hint && (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      )}
    </div>
  );
}

interface SelectProps {
  label: string;
  value: string;
  options: readonly (string | { value: string; label: string })[];
  onChange: (value: string) => void;
}

export function SelectField({ label, value, options, onChange }: SelectProps) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.currentTarget.value)}>
        {options.map((option) => {
          const { value: optionValue, label: text } = typeof option === 'string' ? { value: option, label: option } : option;
          return (
            <option key={optionValue} value={optionValue}>
              {text}
            </option>
          );
        })}
      </select>
    </div>
  );
}

/** Text to copy: shown in a read-only box with a Copy button (falls back to selecting it). */
export function CopyBox({ label, text, testId }: { label: string; text: string; testId?: string }) {
  const id = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const announce = useAnnounce();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      announce(`${label} copied`);
    } catch {
      area.current?.select();
      announce(`${label} selected: press Ctrl+C to copy it`);
    }
  };
  return (
    <div class="copy-box">
      <label for={id}>{label}</label>
      <textarea id={id} ref={area} readOnly rows={Math.min(8, text.split('\n').length)} value={text} data-testid={testId} />
      <button type="button" onClick={copy}>
        Copy {label.toLowerCase()}
      </button>
    </div>
  );
}

export interface TabSpec<K extends string> {
  key: K;
  label: string;
}

/** Tabs: arrow keys, Home and End move between them (the WAI-ARIA tabs pattern). */
export function Tabs<K extends string>({
  label,
  tabs,
  current,
  onSelect,
  idPrefix,
}: {
  label: string;
  tabs: TabSpec<K>[];
  current: K;
  onSelect: (key: K) => void;
  idPrefix: string;
}) {
  const list = useRef<HTMLDivElement>(null);
  const move = (event: KeyboardEvent) => {
    const index = tabs.findIndex((tab) => tab.key === current);
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? tabs.length - 1
              : -1;
    if (next < 0) return;
    event.preventDefault();
    onSelect(tabs[next]!.key);
    list.current?.querySelectorAll<HTMLButtonElement>('[role=tab]')[next]?.focus();
  };
  return (
    <div class="tabs" role="tablist" aria-label={label} ref={list} onKeyDown={move}>
      {tabs.map((tab) => (
        <button
          key={tab.key}
          type="button"
          role="tab"
          id={`${idPrefix}-tab-${tab.key}`}
          aria-selected={tab.key === current}
          aria-controls={`${idPrefix}-panel-${tab.key}`}
          tabIndex={tab.key === current ? 0 : -1}
          onClick={() => onSelect(tab.key)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}

/**
 * A button that acts on its second press: "Delete" becomes "Confirm delete users 7" (announced as
 * the button's new name) and goes back when focus leaves it. `what` names the object for screen readers.
 */
export function ConfirmButton({ action, what, onConfirm }: { action: string; what: string; onConfirm: () => void }) {
  const [armed, setArmed] = useState(false);
  return (
    <button
      type="button"
      class={armed ? 'danger' : ''}
      onClick={() => {
        if (!armed) return setArmed(true);
        setArmed(false);
        onConfirm();
      }}
      onBlur={() => setArmed(false)}
    >
      {armed ? `Confirm ${action.toLowerCase()} ${what}` : action}
      {!armed && <span class="sr-only"> {what}</span>}
    </button>
  );
}

/** A compact rendering of a cell value: JSON for objects, "null" greyed. */
export function CellValue({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span class="null">null</span>;
  if (typeof value === 'object') return <code class="json">{JSON.stringify(value)}</code>;
  return <>{String(value)}</>;
}

/** `value`, once it has stayed the same for `ms` (typing in a filter sends one request, not one a key). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
