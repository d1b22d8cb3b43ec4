// common/error/sqlstate.h
//
// SQLSTATE codes Hearth reports, named as in PostgreSQL's errcodes appendix.
// Plain constexpr strings: they go on the wire verbatim in the 'C' field.
#pragma once

namespace hearth::sqlstate {

inline constexpr char kSuccessfulCompletion[] = "00000";
inline constexpr char kWarning[] = "01000";
inline constexpr char kConnectionException[] = "08000";
inline constexpr char kProtocolViolation[] = "08P01";
inline constexpr char kConnectionFailure[] = "08006";
inline constexpr char kFeatureNotSupported[] = "0A000";
inline constexpr char kWindowingError[] = "42P20";
inline constexpr char kCardinalityViolation[] = "21000";
inline constexpr char kDataException[] = "22000";
inline constexpr char kStringDataRightTruncation[] = "22001";
inline constexpr char kNumericValueOutOfRange[] = "22003";
inline constexpr char kNullValueNotAllowed[] = "22004";
inline constexpr char kInvalidDatetimeFormat[] = "22007";
inline constexpr char kDatetimeFieldOverflow[] = "22008";
inline constexpr char kDivisionByZero[] = "22012";
inline constexpr char kIntervalFieldOverflow[] = "22015";
inline constexpr char kInvalidParameterValue[] = "22023";
inline constexpr char kInvalidTextRepresentation[] = "22P02";
inline constexpr char kBadCopyFileFormat[] = "22P04";
inline constexpr char kInvalidBinaryRepresentation[] = "22P03";
inline constexpr char kCharacterNotInRepertoire[] = "22021";
inline constexpr char kIntegrityConstraintViolation[] = "23000";
inline constexpr char kNotNullViolation[] = "23502";
inline constexpr char kForeignKeyViolation[] = "23503";
inline constexpr char kUniqueViolation[] = "23505";
inline constexpr char kCheckViolation[] = "23514";
inline constexpr char kInvalidCursorState[] = "24000";
inline constexpr char kActiveSqlTransaction[] = "25001";
inline constexpr char kNoActiveSqlTransaction[] = "25P01";
inline constexpr char kInFailedSqlTransaction[] = "25P02";
inline constexpr char kReadOnlySqlTransaction[] = "25006";
inline constexpr char kInvalidSqlStatementName[] = "26000";
inline constexpr char kInvalidAuthorizationSpecification[] = "28000";
inline constexpr char kInvalidPassword[] = "28P01";
inline constexpr char kInvalidTransactionTermination[] = "2D000";
inline constexpr char kInvalidCursorName[] = "34000";
inline constexpr char kInvalidSavepointSpecification[] = "3B001";
inline constexpr char kInvalidCatalogName[] = "3D000";
inline constexpr char kDuplicateDatabase[] = "42P04";
inline constexpr char kInvalidSchemaName[] = "3F000";
inline constexpr char kSerializationFailure[] = "40001";
inline constexpr char kDeadlockDetected[] = "40P01";
inline constexpr char kSyntaxError[] = "42601";
inline constexpr char kInsufficientPrivilege[] = "42501";
inline constexpr char kUndefinedColumn[] = "42703";
inline constexpr char kUndefinedFunction[] = "42883";
inline constexpr char kUndefinedTable[] = "42P01";
inline constexpr char kUndefinedParameter[] = "42P02";
inline constexpr char kDuplicateCursor[] = "42P03";
inline constexpr char kInvalidCursorDefinition[] = "42P11";
inline constexpr char kUndefinedObject[] = "42704";
inline constexpr char kDuplicateColumn[] = "42701";
inline constexpr char kDuplicatePreparedStatement[] = "42P05";
inline constexpr char kDuplicateTable[] = "42P07";
inline constexpr char kDuplicateObject[] = "42710";
inline constexpr char kAmbiguousColumn[] = "42702";
inline constexpr char kAmbiguousFunction[] = "42725";
inline constexpr char kDatatypeMismatch[] = "42804";
inline constexpr char kWrongObjectType[] = "42809";
inline constexpr char kGroupingError[] = "42803";
inline constexpr char kInvalidColumnReference[] = "42P10";
inline constexpr char kIndeterminateDatatype[] = "42P18";
inline constexpr char kCannotCoerce[] = "42846";
inline constexpr char kProgramLimitExceeded[] = "54000";
inline constexpr char kStatementTooComplex[] = "54001";
inline constexpr char kTooManyConnections[] = "53300";
inline constexpr char kOutOfMemory[] = "53200";
inline constexpr char kDiskFull[] = "53100";
inline constexpr char kConfigurationLimitExceeded[] = "53400";
inline constexpr char kObjectInUse[] = "55006";
inline constexpr char kObjectNotInPrerequisiteState[] = "55000";
inline constexpr char kInvalidName[] = "42602";
inline constexpr char kNameTooLong[] = "42622";
inline constexpr char kUndefinedFile[] = "58P01";
inline constexpr char kCantChangeRuntimeParam[] = "55P02";
inline constexpr char kLockNotAvailable[] = "55P03";
inline constexpr char kQueryCanceled[] = "57014";
inline constexpr char kAdminShutdown[] = "57P01";
inline constexpr char kCrashShutdown[] = "57P02";
inline constexpr char kCannotConnectNow[] = "57P03";
inline constexpr char kIoError[] = "58030";
inline constexpr char kInternalError[] = "XX000";
inline constexpr char kDataCorrupted[] = "XX001";

// Window functions.
inline constexpr char kInvalidPrecedingOrFollowingSize[] = "22013";
inline constexpr char kInvalidArgumentForNtile[] = "22014";
inline constexpr char kInvalidArgumentForNthValue[] = "22016";

}  // namespace hearth::sqlstate
