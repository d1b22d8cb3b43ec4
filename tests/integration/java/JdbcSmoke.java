// tests/integration/java/JdbcSmoke.java
//
// An independent implementation of the PostgreSQL protocol (pgjdbc) against
// hearthd. Run by jdbc_test.cpp with Java's single-file source launcher:
//   java -cp /usr/share/java/postgresql.jar JdbcSmoke.java PORT
// Prints one "name: value" line per check (the C++ test asserts on them) and
// exits 1 on the first unexpected result, 2 on an unexpected exception.
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;

public class JdbcSmoke {
  private static int failures = 0;

  private static void check(String name, Object actual, Object expected) {
    boolean ok = expected == null ? actual == null : expected.equals(actual);
    System.out.println(name + ": " + actual + (ok ? "" : "   <-- MISMATCH, expected " + expected));
    if (!ok) failures++;
  }

  private static String sqlState(Connection c, String sql) {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
      return "no error";
    } catch (SQLException e) {
      return e.getSQLState();
    }
  }

  private static void run(String url) throws Exception {
    try (Connection c = DriverManager.getConnection(url)) {
      check("server version", c.getMetaData().getDatabaseMajorVersion() >= 15, true);
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select 1+2")) {
        check("next", rs.next(), true);
        check("select 1+2", rs.getInt(1), 3);
        check("1+2 type", rs.getMetaData().getColumnType(1), Types.INTEGER);
        check("more rows", rs.next(), false);
      }
      try (PreparedStatement ps = c.prepareStatement("select ?::int + 1")) {
        // pgjdbc switches to a named server-side statement after
        // prepareThreshold (5) executions: loop past it.
        int sum = 0;
        for (int i = 0; i < 10; i++) {
          ps.setInt(1, i);
          try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            sum += rs.getInt(1);
          }
        }
        check("prepared loop sum", sum, 55);
      }
      // A recursive CTE and window functions with parameters, run past the
      // prepare threshold so the later runs bind a named server-side statement.
      try (PreparedStatement ps = c.prepareStatement(
               "with recursive r(n) as (select ?::int union all select n + 1 from r where n < ?) "
                   + "select n, sum(n) over (order by n rows between 1 preceding and current row) as s2, "
                   + "row_number() over (order by n desc) as rn, lag(n, 1, ?) over (order by n) as prev "
                   + "from r order by n")) {
        StringBuilder seen = new StringBuilder();
        for (int hi = 3; hi <= 9; hi++) {
          ps.setInt(1, 1);
          ps.setInt(2, hi);
          ps.setInt(3, -1);
          long total = 0;
          try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              total += rs.getLong(1) * 1000 + rs.getLong(2) * 100 + rs.getLong(3) * 10 + rs.getLong(4);
            }
          }
          seen.append(total).append(hi < 9 ? "," : "");
        }
        check("cte window loop", seen.toString(), "6962,11705,17659,24824,33200,42787,53585");
      }
      try (PreparedStatement ps = c.prepareStatement("select ? || 'x', ?::int8 * 2, ?::text is null")) {
        ps.setString(1, "ab");
        ps.setLong(2, 21L);
        ps.setNull(3, Types.VARCHAR);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          check("text param", rs.getString(1), "abx");
          check("int8 param", rs.getLong(2), 42L);
          check("null param", rs.getBoolean(3), true);
        }
      }
      try (Statement s = c.createStatement();
           ResultSet rs = s.executeQuery(
               "select 'x'::text, 1.5::numeric, true, date '2026-11-30', 2.5::float8, 7::int2, null::int,"
                   + " timestamp '2026-11-30 12:34:56'")) {
        rs.next();
        ResultSetMetaData md = rs.getMetaData();
        check("text", rs.getString(1), "x");
        check("numeric", rs.getBigDecimal(2), new BigDecimal("1.5"));
        check("bool", rs.getBoolean(3), true);
        check("date", rs.getDate(4), Date.valueOf("2026-11-30"));
        check("float8", rs.getDouble(5), 2.5);
        check("int2", rs.getShort(6), (short) 7);
        rs.getInt(7);
        check("null was null", rs.wasNull(), true);
        check("timestamp", rs.getString(8), "2026-11-30 12:34:56");
        check("types", md.getColumnTypeName(1) + "," + md.getColumnTypeName(2) + "," + md.getColumnTypeName(3)
            + "," + md.getColumnTypeName(4) + "," + md.getColumnTypeName(5) + "," + md.getColumnTypeName(6),
            "text,numeric,bool,date,float8,int2");
      }
      check("syntax error", sqlState(c, "selec 1"), "42601");
      check("division by zero", sqlState(c, "select 1/0"), "22012");
      check("unknown setting", sqlState(c, "show nosuch"), "42704");
      check("after errors", sqlState(c, "select 1"), "no error");

      // Transactions through the driver.
      c.setAutoCommit(false);
      check("in txn error", sqlState(c, "select 1/0"), "22012");
      check("aborted txn", sqlState(c, "select 1"), "25P02");
      c.rollback();
      check("after rollback", sqlState(c, "select 1"), "no error");
      c.commit();
      c.setAutoCommit(true);

      try (Statement s = c.createStatement()) {
        s.execute("set work_mem = '3MB'");
        try (ResultSet rs = s.executeQuery("show work_mem")) {
          rs.next();
          check("show after set", rs.getString(1), "3MB");
        }
      }
    }
  }

  public static void main(String[] args) {
    String base = "jdbc:postgresql://127.0.0.1:" + args[0] + "/hearth?user=hearth&sslmode=disable";
    try {
      System.out.println("== extended (default)");
      run(base);
      System.out.println("== simple");
      run(base + "&preferQueryMode=simple");
    } catch (Exception e) {
      System.out.println("EXCEPTION: " + e);
      e.printStackTrace(System.out);
      System.exit(2);
    }
    System.out.println(failures == 0 ? "ALL OK" : "FAILURES: " + failures);
    System.exit(failures == 0 ? 0 : 1);
  }
}
