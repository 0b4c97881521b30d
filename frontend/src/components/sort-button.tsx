/** The button of a sortable column's header: its label and the direction it is sorted in. */
export function SortButton({
  label,
  direction,
  onClick,
}: {
  label: string;
  direction: 'ascending' | 'descending' | undefined;
  onClick: () => void;
}) {
  return (
    <button type="button" className="sort-button" onClick={onClick}>
      {label}
      <span className="sort-button__icon" aria-hidden="true">
        {direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : '↕'}
      </span>
    </button>
  );
}
