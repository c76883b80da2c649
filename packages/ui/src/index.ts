// @app/ui: design tokens and components of Compras. Import the styles once: `import '@app/ui/styles.css'`.
export { Alert, type AlertProps, type AlertVariant } from './Alert';
export {
  AsyncCombobox,
  type AsyncComboboxOption,
  type AsyncComboboxProps,
  COMBOBOX_LOAD_ERROR,
} from './AsyncCombobox';
export { AsyncComboboxField, type AsyncComboboxFieldProps } from './AsyncComboboxField';
export {
  AppLayout,
  type AppLayoutProps,
  type ThemePreference,
  ThemeSwitch,
  type ThemeSwitchProps,
  UserMenu,
  type UserMenuProps,
} from './AppLayout';
export { Button, type ButtonProps, type ButtonVariant } from './Button';
export { ButtonRow, type ButtonRowAction } from './ButtonRow';
export { Card, type CardProps } from './Card';
export {
  ConfirmDialog,
  type ConfirmDialogProps,
  type ConfirmOptions,
  type ConfirmTone,
  confirmDialog,
  useConfirm,
} from './ConfirmDialog';
export { cx } from './cx';
export { type DetailsItem, DetailsList, type DetailsListProps } from './DetailsList';
export {
  DataTable,
  type DataTableColumn,
  type DataTableProps,
  type SortDirection,
  type SortState,
} from './DataTable';
export { EmptyState, type EmptyStateProps } from './EmptyState';
export {
  CheckboxField,
  type CheckboxFieldProps,
  type FieldOwnProps,
  PasswordField,
  type PasswordFieldProps,
  SelectField,
  type SelectFieldProps,
  type SelectOption,
  TextareaField,
  type TextareaFieldProps,
  TextField,
  type TextFieldProps,
} from './fields';
export { SearchForm, type SearchFormProps } from './SearchForm';
export { formatMoney, formatNumber, LOCALE } from './format';
export { Icon, type IconName, type IconProps, iconNames, isIconName } from './Icon';
export {
  compareMenuItems,
  findActiveHref,
  groupMenu,
  isActiveHref,
  type MenuGroup,
  type MenuItem,
} from './menu';
export { characterCount, PromptDialog, type PromptOptions } from './PromptDialog';
export { RadioGroupField, type RadioGroupFieldProps, type RadioOption } from './RadioGroupField';
export { Tabs, type TabsProps } from './Tabs';
export { PageHeader, type PageHeaderProps } from './PageHeader';
export { Pagination, type PaginationProps } from './Pagination';
export { LOADING_TEXT, PageLoading, type PageLoadingProps, Spinner, type SpinnerProps } from './Spinner';
export { VisuallyHidden, type VisuallyHiddenProps } from './VisuallyHidden';
