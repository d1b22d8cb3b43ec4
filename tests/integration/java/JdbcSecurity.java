// tests/integration/java/JdbcSecurity.java
//
// The security model seen through pgjdbc: SCRAM logins (right, wrong and
// unknown-user passwords), NOLOGIN, a pg_hba.conf reject line, privileges
// on tables, columns and schemas granted and revoked, COPY from a server
// file refused, two databases kept apart, and TLS with sslmode=require and
// verify-full against a CA. Run by security_test.cpp, which sets up roles,
// pg_hba.conf and certificates first:
//   java -cp /usr/share/java/postgresql.jar JdbcSecurity.java PORT CA_FILE OTHER_CA_FILE
// Prints one "name: value" line per check (the C++ test asserts on them) and
// exits 1 if any check did not see what it expected.
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

public class JdbcSecurity {
  private static int failures = 0;
  private static int port;

  private static void check(String name, String actual, String expected) {
    boolean ok = expected.equals(actual);
    System.out.println(name + ": " + actual + (ok ? "" : "   <-- MISMATCH, expected " + expected));
    if (!ok) failures++;
  }

  private static Connection connect(String db, String user, String password, String sslOptions)
      throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", user);
    p.setProperty("password", password);
    return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/" + db + "?" + sslOptions, p);
  }

  private static Connection plain(String db, String user, String password) throws SQLException {
    return connect(db, user, password, "sslmode=disable");
  }

  // "SQLSTATE message" of a failed login, or "connected as <user>".
  private static String login(String user, String password, String sslOptions) {
    try (Connection c = connect("hearth", user, password, sslOptions)) {
      return "connected as " + value(c, "select current_user");
    } catch (SQLException e) {
      return e.getSQLState() + " " + e.getMessage();
    }
  }

  // The first column of the first row, "ok" for a statement without rows,
  // or "SQLSTATE message" when it failed (the message's first line: pgjdbc
  // adds hint and position lines).
  private static String value(Connection c, String sql) {
    try (Statement s = c.createStatement()) {
      if (!s.execute(sql)) return "ok";
      try (ResultSet rs = s.getResultSet()) {
        return rs.next() ? rs.getString(1) : "no rows";
      }
    } catch (SQLException e) {
      return e.getSQLState() + " " + e.getMessage().split("\n")[0];
    }
  }

  private static void passwords() {
    check("right password", login("alice", "secret", "sslmode=disable"), "connected as alice");
    check("wrong password", login("alice", "wrong", "sslmode=disable"),
          "28P01 FATAL: password authentication failed for user \"alice\"");
    check("unknown user", login("ghost", "secret", "sslmode=disable"),
          "28P01 FATAL: password authentication failed for user \"ghost\"");
    check("nologin", login("nl", "x", "sslmode=disable"), "28000 FATAL: role \"nl\" is not permitted to log in");
    check("hba reject", login("tlsuser", "tls", "sslmode=disable"),
          "28000 FATAL: pg_hba.conf rejects connection for host \"127.0.0.1\", user \"tlsuser\", "
              + "database \"hearth\", no encryption");
  }

  private static void privileges(Connection admin, Connection app) {
    check("table before grant", value(app, "select v from secret"),
          "42501 ERROR: permission denied for table secret");
    value(admin, "grant select on secret to app");
    check("table after grant", value(app, "select v from secret"), "42");
    value(admin, "revoke select on secret from app");
    check("table after revoke", value(app, "select v from secret"),
          "42501 ERROR: permission denied for table secret");

    value(admin, "grant select (id) on staff to app");
    check("granted column", value(app, "select id from staff"), "1");
    check("other column", value(app, "select salary from staff"), "42501 ERROR: permission denied for table staff");
    value(admin, "revoke select (id) on staff from app");
    check("column after revoke", value(app, "select id from staff"),
          "42501 ERROR: permission denied for table staff");

    check("schema before grant", value(app, "select v from s.t"), "42501 ERROR: permission denied for schema s");
    value(admin, "grant select on s.t to app");
    check("table granted, schema not", value(app, "select v from s.t"),
          "42501 ERROR: permission denied for schema s");
    value(admin, "grant usage on schema s to app");
    check("schema after grant", value(app, "select v from s.t"), "5");
    check("create without CREATE", value(app, "create table s.mine (x int)"),
          "42501 ERROR: permission denied for schema s");
    value(admin, "revoke usage on schema s from app");
    check("schema after revoke", value(app, "select v from s.t"), "42501 ERROR: permission denied for schema s");

    check("copy from /etc/passwd", value(app, "copy mine from '/etc/passwd'"),
          "42501 ERROR: must be superuser or have privileges of the pg_read_server_files role to COPY from a file");
  }

  private static void databases(Connection admin) throws SQLException {
    value(admin, "create database other");
    try (Connection other = plain("other", "hearth", "")) {
      check("create in other", value(other, "create table only_there (x int)"), "ok");
      check("database", value(other, "select current_database()"), "other");
    }
    check("invisible in hearth", value(admin, "select * from only_there"),
          "42P01 ERROR: relation \"only_there\" does not exist");
  }

  private static void tls(String ca, String otherCa) {
    check("sslmode=require", login("tlsuser", "tls", "sslmode=require"), "connected as tlsuser");
    check("sslmode=verify-full",
          login("tlsuser", "tls", "sslmode=verify-full&sslrootcert=" + ca), "connected as tlsuser");
    String wrongCa = login("tlsuser", "tls", "sslmode=verify-full&sslrootcert=" + otherCa);
    check("verify-full, another CA refused", wrongCa.startsWith("connected") ? wrongCa : "refused", "refused");
    check("wrong password over TLS", login("tlsuser", "nope", "sslmode=require"),
          "28P01 FATAL: password authentication failed for user \"tlsuser\"");
  }

  public static void main(String[] args) throws Exception {
    port = Integer.parseInt(args[0]);
    passwords();
    try (Connection admin = plain("hearth", "hearth", ""); Connection app = plain("hearth", "app", "pw")) {
      value(app, "create table mine (line text)");
      privileges(admin, app);
      databases(admin);
    }
    tls(args[1], args[2]);
    System.out.println(failures == 0 ? "ALL OK" : failures + " FAILED");
    System.exit(failures == 0 ? 0 : 1);
  }
}
